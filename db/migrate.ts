import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator'
import { Logger, runMigrations } from 'graphile-worker'
import postgres from 'postgres'
import { applyDatabaseRoles, type DatabaseRolePasswords } from './roles/applyDatabaseRoles'

const here = path.dirname(fileURLToPath(import.meta.url))
export const migrationsFolder = process.env.MINTDESK_MIGRATIONS_DIR ?? path.join(here, 'migrations')

export type MigrateParameters = {
  /** the migration owner's connection: it owns every table and creates the runtime roles */
  databaseUrl: string
  /** the passwords of the runtime roles mintdesk_web / mintdesk_worker, set on every run (db/roles) */
  roles?: DatabaseRolePasswords
}

/**
 * Applies mintdesk's Drizzle migrations and graphile-worker's own schema, idempotently,
 * then the database roles and their grants (db/roles/applyDatabaseRoles.ts) over
 * everything those just made. An advisory lock keeps two processes from migrating the
 * same database at once.
 */
export async function migrate({ databaseUrl, roles }: MigrateParameters): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    await sql`select pg_advisory_lock(7245019)`
    await runMigrations({ connectionString: databaseUrl, logger: silentLogger() })
    await drizzleMigrate(drizzle(sql), { migrationsFolder })
    await applyDatabaseRoles(sql, { roles })
  } finally {
    await sql`select pg_advisory_unlock(7245019)`.catch(() => {})
    await sql.end({ timeout: 5 })
  }
}

export function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[]
  }
  return journal.entries.length
}

function silentLogger(): Logger {
  return new Logger(() => () => {})
}
