import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { inject } from 'vitest'
import { migrationsFolder } from '@/db/migrate'

export type MigrationDatabase = {
  /** a connection to the new, empty database */
  sql: postgres.Sql
  /** its URL, as the owner */
  url: string
  /** a copy of the migrations folder with only the first `count` migrations in its journal */
  folderUpTo(count: number): string
  /** drops the database and the folder copies */
  drop(): Promise<void>
}

/**
 * An empty database of its own on the tests' Postgres, for a migration test that migrates up to
 * the migration under test, writes the rows it must handle, then applies it.
 */
export async function createMigrationDatabase(): Promise<MigrationDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-migration-'))
  const name = `m_${randomBytes(6).toString('hex')}`
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const u = new URL(inject('pgAdminUrl'))
  u.pathname = `/${name}`
  const url = u.toString()
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  return {
    sql,
    url,
    folderUpTo(count) {
      const out = path.join(dir, `upto-${count}`)
      cpSync(migrationsFolder, out, { recursive: true })
      const journalFile = path.join(out, 'meta', '_journal.json')
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] }
      journal.entries = journal.entries.slice(0, count)
      writeFileSync(journalFile, JSON.stringify(journal))
      return out
    },
    async drop() {
      await sql.end()
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
