import { createDb, type DbClient } from '@/db/client'
import { createChainClient } from '@/lib/chain/createChainClient'
import { createMinterReader, type MinterReader } from '@/lib/web/approvals/MinterReader'
import { getConfig } from '@/lib/web/config/getConfig'
import { createRateLimiter, type RateLimiter } from '@/lib/web/http/createRateLimiter'
import { createSubjectListener, type SubjectListener } from '@/lib/web/live/createSubjectListener'
import { createReservesReader, type ReservesReader } from '@/lib/web/reserves/createReservesReader'
import { RESERVES_LIMITS } from '@/lib/web/reserves/limits'
import { reservesParameters } from '@/lib/web/reserves/reservesParameters'

/**
 * The web process's long-lived objects, created here and nowhere else, once per process:
 * kept on globalThis so that a dev hot reload reuses them instead of opening another
 * pool. Route handlers, pages and lib/web/auth/nextAuth.ts take them from
 * here and pass them down as arguments; lib/ and db/ never reach for a singleton. The
 * worker (worker/runtime/startWorker.ts) and the CLIs create their own database client.
 */
type WebProcess = {
  db?: DbClient
  reservesReader?: ReservesReader
  reservesRateLimiter?: RateLimiter
  minter?: MinterReader
  subjects?: SubjectListener
}

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

/**
 * The public reserves answers (lib/web/reserves/createReservesReader.ts): one chain client
 * and one cache per process, so concurrent readers share one chain read and one set of sums.
 */
export function getReservesReader(): ReservesReader {
  const config = getConfig('web')
  web.reservesReader ??= createReservesReader(getWebDb().db, {
    reserves: reservesParameters(config),
    confirmations: config.confirmations,
  })
  return web.reservesReader
}

/** The per-client rate limit of the public reserves routes (RESERVES_LIMITS: a burst, then a rate). */
export function getReservesRateLimiter(): RateLimiter {
  web.reservesRateLimiter ??= createRateLimiter({ burst: RESERVES_LIMITS.burst, perSecond: RESERVES_LIMITS.perSecond })
  return web.reservesRateLimiter
}

/** THE MinterReader of the web (GoldMinter at MINTER_ADDRESS, read-only); an error names what is not configured. */
export function getMinterReader(): MinterReader {
  if (!web.minter) {
    const config = getConfig('web')
    if (config.rpcUrls.length === 0 || !config.chainId || !config.minterAddress)
      throw new Error('RPC_URL, CHAIN_ID and MINTER_ADDRESS are needed to judge approvals')
    const client = createChainClient({
      rpcUrls: config.rpcUrls,
      chainId: config.chainId,
      pollingMs: config.rpcPollingMs,
      healthMs: config.rpcHealthMs,
      maxLagBlocks: config.rpcMaxLagBlocks,
    })
    web.minter = createMinterReader({ client, chainId: config.chainId, minterAddress: config.minterAddress })
  }
  return web.minter
}

/** The process's one LISTEN for the live pages (lib/web/live/createSubjectListener.ts), on the web's database. */
export function getSubjectListener(): SubjectListener {
  web.subjects ??= createSubjectListener(getWebDb().sql)
  return web.subjects
}
