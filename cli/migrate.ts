// The migration CLI: `node migrate.mjs` in the worker image (bundled by
// scripts/build-release.ts), `tsx cli/migrate.ts` from a checkout. Production runs it
// as the one-off ECS task of each deploy, before the services roll (deploy/lib/addMigrationOnDeploy.ts);
// the web and the worker never migrate. Applies Drizzle's migrations and graphile-worker's
// schema under an advisory lock (db/migrate.ts), so a second run at the same time waits
// and then finds nothing to do. Needs DATABASE_URL, the migration owner's (the password
// may come from PGPASSWORD), and WEB_DATABASE_PASSWORD / WORKER_DATABASE_PASSWORD: the
// passwords of the runtime roles mintdesk_web / mintdesk_worker, set on every run
// (db/roles; production refuses to migrate without them, a dev run keeps the ones set).
// Exit code 0 on success, 1 on any failure; JSON log lines on stdout/stderr.

import { DEV_DATABASE_PASSWORDS } from '@/cli/config/devDatabasePasswords'
import { expectedMigrationCount, migrate, migrationsFolder } from '@/db/migrate'
import type { DatabaseRolePasswords } from '@/db/roles/applyDatabaseRoles'
import { loadConfig } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'
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
    const roles = rolePasswords(config.production)
    await migrate({ databaseUrl: config.databaseUrl, roles })
    log('info', 'migrations applied', {
      database: host,
      ms: Date.now() - started,
      rolePasswordsSet: Object.keys(roles),
    })
    return 0
  },
})

/** The runtime roles' passwords from the environment; production needs both. */
function rolePasswords(production: boolean): DatabaseRolePasswords {
  const web = process.env.WEB_DATABASE_PASSWORD
  const worker = process.env.WORKER_DATABASE_PASSWORD
  const missing = [!web && 'WEB_DATABASE_PASSWORD', !worker && 'WORKER_DATABASE_PASSWORD'].filter(
    (v): v is string => !!v,
  )
  if (production && missing.length > 0) {
    throw new ConfigError(
      missing,
      `missing configuration: ${missing.join(', ')} must be set (the runtime database roles' passwords)`,
    )
  }
  const devValued = [
    web === DEV_DATABASE_PASSWORDS.web && 'WEB_DATABASE_PASSWORD',
    worker === DEV_DATABASE_PASSWORDS.worker && 'WORKER_DATABASE_PASSWORD',
  ].filter((v): v is string => !!v)
  if (production && devValued.length > 0) {
    throw new ConfigError(devValued, `production mode refuses dev defaults: ${devValued.join(', ')}`)
  }
  return { ...(web ? { web: { password: web } } : {}), ...(worker ? { worker: { password: worker } } : {}) }
}
