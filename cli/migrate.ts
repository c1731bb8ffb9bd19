// The migration CLI: `node migrate.mjs` in the worker image (bundled by
// scripts/build-release.ts), `tsx cli/migrate.ts` from a checkout. Production runs it
// as the one-off ECS task of each deploy, before the services roll (deploy/lib/addMigrationOnDeploy.ts);
// the web and the worker never migrate. Applies Drizzle's migrations and graphile-worker's
// schema under an advisory lock (db/migrate.ts), so a second run at the same time waits
// and then finds nothing to do. Needs DATABASE_URL only (the password may come from
// PGPASSWORD). Exit code 0 on success, 1 on any failure; JSON log lines on stdout/stderr.
import { expectedMigrationCount, migrate, migrationsFolder } from '@/db/migrate'
import { loadConfig } from '@/lib/config/loadConfig'
import { createCliLog, runCli } from './cli'

const log = createCliLog('mintdesk-migrate')

const started = Date.now()
await runCli({
  name: 'migration',
  log,
  main: async () => {
    const config = loadConfig({ role: 'tool' })
    const host = new URL(config.databaseUrl).host
    log('info', 'migrating', { database: host, migrationsFolder, migrations: expectedMigrationCount() })
    await migrate({ databaseUrl: config.databaseUrl })
    log('info', 'migrations applied', { database: host, ms: Date.now() - started })
    return 0
  },
})
