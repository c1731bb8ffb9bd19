import type { DbOrTx } from '@/db/client'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { createSingleFlightCache } from '@/lib/web/cache/createSingleFlightCache'
import type { ApiReserveHistory, ApiReserveLookup, ApiReserves } from './apiTypes'
import { type GetReservesOrThrowParameters, getReservesOrThrow } from './getReservesOrThrow'
import { RESERVES_LIMITS } from './limits'
import { listBackedMints } from './listBackedMints'
import { readReserveHistory } from './readReserveHistory'
import type { ReserveHistoryQuery, ReserveLookupQuery } from './schemas'

export type CreateReservesReaderParameters = {
  /** getReservesOrThrow's chain client and token, made once for the process (reservesParameters) */
  reserves: GetReservesOrThrowParameters
  /** how long an answer serves; RESERVES_LIMITS.cacheMs by default */
  ttlMs?: number
  now?: () => number
}

export type ReservesReader = {
  /** GET /api/reserves: getReservesOrThrow, at most once per interval however many callers */
  reserves: () => Promise<ApiReserves>
  /** GET /api/reserves/lookup: listBackedMints, at most once per interval for one address or transaction */
  lookup: (query: ReserveLookupQuery) => Promise<ApiReserveLookup>
  /** GET /api/reserves/history: readReserveHistory, at most once per interval for one window */
  history: (query: ReserveHistoryQuery) => Promise<ApiReserveHistory>
  /** forgets the kept answers: the next call reads again */
  clear: () => void
}

/**
 * The public reserves answers for one web process, behind single-flight caches
 * (lib/web/cache/createSingleFlightCache): concurrent callers share one read, whose
 * answer then serves everyone for `ttlMs`. So a flood of public requests costs the chain
 * (the RPC quota the worker's mints share) two calls and the database one set of sums
 * per interval, not per request. An answer is as of its `asOf`, at most `ttlMs` old.
 * A lookup is keyed by its address or hash in lower case, or its serial's bar key (each
 * spelling finds the same mints), and answers with the caller's own query.
 *
 * ```ts
 * const reader = createReservesReader(db, { reserves: reservesParameters(config) })
 * const figures = await reader.reserves()
 * ```
 */
export function createReservesReader(db: DbOrTx, p: CreateReservesReaderParameters): ReservesReader {
  const ttlMs = p.ttlMs ?? RESERVES_LIMITS.cacheMs
  const figures = createSingleFlightCache<ApiReserves>({ ttlMs, maxEntries: 1, now: p.now })
  const lookups = createSingleFlightCache<ApiReserveLookup>({
    ttlMs,
    maxEntries: RESERVES_LIMITS.lookupEntries,
    retain: (answer) => answer.mints.reduce((n, m) => n + m.bars.length, 0) <= RESERVES_LIMITS.lookupRetainBars,
    now: p.now,
  })
  const histories = createSingleFlightCache<ApiReserveHistory>({
    ttlMs,
    maxEntries: RESERVES_LIMITS.historyMaxDays,
    now: p.now,
  })
  return {
    reserves: () => figures.get('reserves', () => getReservesOrThrow(db, p.reserves)),
    lookup: async (query) => {
      const answer = await lookups.get(lookupKey(query), () => listBackedMints(db, query))
      // the query as this caller gave it (listBackedMints echoes a hash in lower case, an address or serial as given)
      return { ...answer, query: 'tx' in query ? { tx: query.tx.toLowerCase() } : query }
    },
    history: (query) => histories.get(`days:${query.days}`, () => readReserveHistory(db, query)),
    clear: () => {
      figures.clear()
      lookups.clear()
      histories.clear()
    },
  }
}

/** The cache key of a lookup: what finds the same mints finds the same entry. */
function lookupKey(query: ReserveLookupQuery): string {
  if ('tx' in query) return `tx:${query.tx.toLowerCase()}`
  if ('address' in query) return `address:${query.address.toLowerCase()}`
  const key = normalizeBarKey(query.serial)
  return `serial:${key.ok ? key.key : query.serial}`
}
