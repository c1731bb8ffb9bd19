import { createDb, type DbClient } from '@/db/client'
import { getConfig } from '@/lib/web/config/getConfig'

/**
 * The web process's long-lived objects, created here and nowhere else, once per process:
 * kept on globalThis so that a dev hot reload reuses them instead of opening another
 * pool. Route handlers, pages and lib/web/auth/nextAuth.ts take them from
 * here and pass them down as arguments; lib/ and db/ never reach for a singleton. The
 * worker (worker/runtime/startWorker.ts) and the CLIs create their own database client.
 */
type WebProcess = { db?: DbClient }

const holder = globalThis as unknown as { mintdeskWeb?: WebProcess }
holder.mintdeskWeb ??= {}
const web: WebProcess = holder.mintdeskWeb

/** The web's database client: one pool per process, sized by DATABASE_POOL_MAX. */
export function getWebDb(): DbClient {
  if (!web.db) {
    const config = getConfig('web')
    web.db = createDb({ url: config.databaseUrl, max: config.databasePoolMax })
  }
  return web.db
}
