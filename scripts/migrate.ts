// The migration CLI: `node migrate.mjs` in the worker image (bundled by
// scripts/build-release.ts), `tsx scripts/migrate.ts` from a checkout. Production runs it
// as the one-off ECS task of each deploy, before the services roll (deploy/lib/MintdeskStack.ts);
// the web and the worker never migrate. Applies Drizzle's migrations and graphile-worker's
// schema under an advisory lock (db/migrate.ts), so a second run at the same time waits
// and then finds nothing to do. Needs DATABASE_URL only (the password may come from
// PGPASSWORD). Exit code 0 on success, 1 on any failure; JSON log lines on stdout/stderr.
import { expectedMigrationCount, migrate, migrationsFolder } from '@/db/migrate'
import { ConfigError, loadConfig } from '@/lib/config/loadConfig'

function log(level: 'info' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  // the shape of the worker's pino lines (worker/logger.ts)
  const line = `${JSON.stringify({ level, time: new Date().toISOString(), service: 'mintdesk-migrate', msg, ...fields })}\n`
  ;(level === 'info' ? process.stdout : process.stderr).write(line)
}

const started = Date.now()
try {
  const config = loadConfig({ role: 'tool' })
  const host = new URL(config.databaseUrl).host
  log('info', 'migrating', { database: host, migrationsFolder, migrations: expectedMigrationCount() })
  await migrate({ databaseUrl: config.databaseUrl })
  log('info', 'migrations applied', { database: host, ms: Date.now() - started })
  process.exitCode = 0
} catch (err) {
  if (err instanceof ConfigError) log('error', err.message, { variables: err.variables })
  else log('error', 'migration failed', { err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  process.exitCode = 1
}
// a pool left open somewhere must not keep a one-off task running forever
setTimeout(() => process.exit(process.exitCode ?? 1), 5_000).unref()
