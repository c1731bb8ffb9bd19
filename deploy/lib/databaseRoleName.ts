import { DATABASE_ROLES, type RuntimeRole } from '@/db/roles/roleNames'

/**
 * The Postgres user of a runtime role (mintdesk_web, mintdesk_worker), for code that may
 * not import db/ (the CDK stack in deploy/ builds its tasks' DATABASE_URL with it).
 */
export function databaseRoleName(role: RuntimeRole): string {
  return DATABASE_ROLES[role]
}
