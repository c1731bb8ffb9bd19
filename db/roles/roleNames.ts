/**
 * The two runtime roles of mintdesk's database (docs/architecture.md invariant 7). The
 * migration owner (the user migrations connect as: RDS's master user, the embedded
 * Postgres's `postgres`) owns every table and creates these two; the web connects as
 * `mintdesk_web`, each worker as `mintdesk_worker`. Plain names, no imports: the config
 * check of production (lib/config) and the test harness read them too.
 */
export const DATABASE_ROLES = { web: 'mintdesk_web', worker: 'mintdesk_worker' } as const

export type RuntimeRole = keyof typeof DATABASE_ROLES
