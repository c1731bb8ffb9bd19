import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { inject } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import type { RuntimeRole } from '@/db/roles/roleNames'
import { databaseUrlAs } from '@/scripts/stack/databaseUrlAs'

export type TestDatabase = DbClient & {
  /** the migration owner's URL (the server's superuser): fixtures write anything through it */
  url: string
  name: string
  /** the same database as the web's or a worker's own role (mintdesk_web / mintdesk_worker, dev passwords) */
  roleUrl: (role: RuntimeRole) => string
  /** closes the pool and drops the database */
  drop: () => Promise<void>
}

/**
 * A fresh database for one test file, cloned from the migrated template that
 * tests/setup/globalSetup.ts made. Call drop() in afterAll: it fails the test
 * if a pool was left open on it.
 */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl')
  const template = inject('pgTemplate')
  const name = `t_${randomBytes(6).toString('hex')}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`create database ${name} template ${template}`)
  } finally {
    await admin.end()
  }
  const url = databaseUrl(name)
  const client = createDb({ url, max: options.max ?? 10, name: 'mintdesk-test' })
  return {
    ...client,
    url,
    name,
    roleUrl: (role) => databaseUrlAs(url, { role }),
    drop: async () => {
      await client.close()
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} })
      try {
        const open = await connectionsLeftOn({ sql: a, name })
        await a.unsafe(`drop database if exists ${name} with (force)`)
        if (open.length > 0) throw new Error(`a pool was left open on test database ${name}: ${open.join(', ')}`)
      } finally {
        await a.end()
      }
    },
  }
}

/**
 * The connections still on the database after its users closed their pools.
 * A backend whose client process was just killed or stopped leaves
 * pg_stat_activity a moment after its socket closes, so this waits up to
 * LINGER_MS for them to go; a pool really left open stays and is named.
 */
const LINGER_MS = 5_000
async function connectionsLeftOn({ sql, name }: { sql: postgres.Sql; name: string }): Promise<string[]> {
  const deadline = Date.now() + LINGER_MS
  for (;;) {
    const rows = await sql<
      { app: string }[]
    >`select coalesce(nullif(application_name, ''), 'pid ' || pid) as app from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`
    if (rows.length === 0 || Date.now() > deadline) return rows.map((r) => r.app)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The URL of a database on the test run's server. */
export function databaseUrl(name: string): string {
  const u = new URL(inject('pgAdminUrl'))
  u.pathname = `/${name}`
  return u.toString()
}
