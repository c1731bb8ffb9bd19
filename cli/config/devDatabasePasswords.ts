import type { RuntimeRole } from '@/db/roles/roleNames'

/**
 * The passwords of the runtime database roles (mintdesk_web, mintdesk_worker) in the
 * local stack and the tests, where the embedded Postgres listens on 127.0.0.1 only.
 * A production migration refuses to set them (cli/migrate.ts); the deploy generates its
 * own (deploy/lib/addDatabaseRoles.ts).
 */
export const DEV_DATABASE_PASSWORDS: Readonly<Record<RuntimeRole, string>> = {
  web: 'mintdesk-web-dev-password',
  worker: 'mintdesk-worker-dev-password',
}
