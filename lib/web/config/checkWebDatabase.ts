import { createDb } from '@/db/client'
import { checkRuntimeDatabase } from '@/lib/config/checkRuntimeDatabase'
import type { Config } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'
import { redactSecrets } from '@/lib/errors/redactSecrets'

export type CheckWebDatabaseReturnType = { ok: true } | { ok: false; message: string }

/**
 * The web's start check in its database (production only; instrumentation-node.ts exits
 * on a refusal): its role holds nothing beyond db/roles/tableGrants.ts and its
 * MINTER_ADDRESS is the worker's (lib/config/checkRuntimeDatabase.ts). On a short-lived
 * connection of its own, closed after. A database that cannot be asked is a refusal too:
 * the web does not serve what it could not check.
 */
export async function checkWebDatabase(
  config: Pick<Config, 'production' | 'databaseUrl' | 'minterAddress'>,
): Promise<CheckWebDatabaseReturnType> {
  if (!config.production) return { ok: true }
  const client = createDb({ url: config.databaseUrl, max: 1, name: 'mintdesk-web-start' })
  try {
    await checkRuntimeDatabase(client.db, {
      role: 'web',
      production: true,
      minterAddress: config.minterAddress,
    })
    return { ok: true }
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, message: error.message }
    const why = error instanceof Error ? error.message : String(error)
    return { ok: false, message: `the database could not be checked: ${redactSecrets(why)}` }
  } finally {
    await client.close()
  }
}
