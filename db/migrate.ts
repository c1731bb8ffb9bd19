import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator'
import { Logger, runMigrations } from 'graphile-worker'
import postgres from 'postgres'

const here = path.dirname(fileURLToPath(import.meta.url))
export const migrationsFolder = process.env.MINTDESK_MIGRATIONS_DIR ?? path.join(here, 'migrations')

export type MigrateParameters = { databaseUrl: string }

/**
 * Applies mintdesk's Drizzle migrations and graphile-worker's own schema, idempotently.
 * An advisory lock keeps two processes from migrating the same database at once.
 */
export async function migrate({ databaseUrl }: MigrateParameters): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    await sql`select pg_advisory_lock(7245019)`
    await runMigrations({ connectionString: databaseUrl, logger: silentLogger() })
    await drizzleMigrate(drizzle(sql), { migrationsFolder })
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
