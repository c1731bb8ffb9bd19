import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import type { TestProject } from 'vitest/node'
import { DEV_DATABASE_PASSWORDS } from '../../cli/config/devDatabasePasswords'
import { migrate } from '../../db/migrate'
import { buildWorker } from '../../scripts/build-release'
import { startPostgres } from '../../scripts/stack/postgres'
import { RELEASE_WORKER_DIR_ENV } from '../helpers/workerProcess'

export const TEMPLATE_DB = 'mintdesk_template'

declare module 'vitest' {
  export interface ProvidedContext {
    /** superuser URL of the run's Postgres server, database 'postgres' */
    pgAdminUrl: string
    pgTemplate: string
  }
}

/**
 * One embedded Postgres per test run (or the server in TEST_DATABASE_URL), with a
 * template database migrated once (Drizzle + graphile-worker + the database roles). Each test file clones
 * its own database from it (tests/helpers/db.ts).
 *
 * And the worker as the worker image ships it, built once while Postgres starts: esbuild's bundles of the worker and
 * its CLIs (scripts/build-release.ts buildWorker), which the tests' worker processes run
 * (tests/helpers/workerProcess.ts) instead of transpiling every module of the worker through tsx at each start.
 */
export default async function setup(project: TestProject) {
  const workerDir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-test-worker-'))
  const root = path.resolve(import.meta.dirname, '..', '..')
  const workerBuilt = buildWorker({ root, workerDir })
  // settled now, awaited below: a failed build must not go unhandled while Postgres starts
  workerBuilt.catch(() => {})
  let adminUrl: string
  let stop: () => Promise<void> = async () => {}
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-test-pg-'))
    // mkdtemp makes it 0700; as root the server runs as 'postgres', which must reach it
    // (else the launcher moves the data under /var/tmp, outside what teardown removes)
    chmodSync(dir, 0o755)
    const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true, database: 'postgres' })
    adminUrl = pg.adminUrl('postgres')
    stop = async () => {
      await pg.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`)
  await admin.unsafe(`create database ${TEMPLATE_DB}`)
  await admin.end()
  // the runtime roles (mintdesk_web, mintdesk_worker) with the dev passwords: the test
  // databases cloned from the template carry their grants (tests/helpers/db.ts roleUrl)
  await migrate({
    databaseUrl: withDatabase(adminUrl, TEMPLATE_DB),
    roles: { web: { password: DEV_DATABASE_PASSWORDS.web }, worker: { password: DEV_DATABASE_PASSWORDS.worker } },
  })

  project.provide('pgAdminUrl', adminUrl)
  project.provide('pgTemplate', TEMPLATE_DB)
  await workerBuilt
  // read by the test files' processes, which Vitest starts after this setup with its environment
  process.env[RELEASE_WORKER_DIR_ENV] = workerDir
  return async () => {
    await stop()
    rmSync(workerDir, { recursive: true, force: true })
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}
