import type { Db } from '@/db/client'
import type { RuntimeRole } from '@/db/roles/roleNames'
import { ConfigError } from '@/lib/errors/config'
import { checkSharedSettings } from './checkSharedSettings'
import { checkTablePrivileges } from './checkTablePrivileges'

export type CheckRuntimeDatabaseParameters = {
  role: RuntimeRole
  /** config.production: the checks run in production only (dev and tests share one database between many settings) */
  production: boolean
  /** config.minterAddress */
  minterAddress: string | undefined
}

/**
 * What the web and the worker check in the database before they serve or sign, in
 * production (fails closed, as loadConfig does with the environment): their role holds
 * nothing beyond db/roles/tableGrants.ts (checkTablePrivileges), and both run with one
 * MINTER_ADDRESS (checkSharedSettings). Throws a ConfigError naming the variables
 * (DATABASE_URL, MINTER_ADDRESS); the web's startup (instrumentation-node.ts) and
 * the worker's (worker/runtime/startWorker.ts) exit on it.
 *
 * @example
 * await checkRuntimeDatabase(db, { role: 'worker', production: config.production,
 * minterAddress: config.minterAddress })
 */
export async function checkRuntimeDatabase(
  db: Db,
  { role, production, minterAddress }: CheckRuntimeDatabaseParameters,
): Promise<void> {
  if (!production) return
  const privileges = await checkTablePrivileges(db, { role })
  if (!privileges.ok) throw new ConfigError(privileges.variables, privileges.message)
  const shared = await checkSharedSettings(db, { role, minterAddress })
  if (!shared.ok) throw new ConfigError(shared.variables, shared.message)
}
