import type { DbOrTx } from '@/db/client'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { createSingleFlightCache } from '@/lib/web/cache/createSingleFlightCache'
import { NotReadyError } from '@/lib/web/errors/ops'
import { ValidationError } from '@/lib/web/errors/request'
import type { ApiReserveHistory, ApiReserveLookup, ApiReserves } from './apiTypes'
import { type GetReservesOrThrowParameters, getReservesOrThrow } from './getReservesOrThrow'
import { RESERVES_LIMITS } from './limits'
import { listBackedMints } from './listBackedMints'
import { readAttestationPack } from './readAttestationPack'
import { readReserveHistory } from './readReserveHistory'
import { readUnsettledAtBlock } from './readUnsettledAtBlock'
import { type RenderAttestationPackReturnType, renderAttestationPack } from './renderAttestationPack'
import type { ReserveHistoryQuery, ReserveLookupQuery } from './schemas'

export type CreateReservesReaderParameters = {
  /** getReservesOrThrow's chain client and token, made once for the process (reservesParameters) */
  reserves: GetReservesOrThrowParameters
  /** the confirmations a block needs before its attestation pack is final (CONFIRMATIONS); 1 by default */
  confirmations?: number
  /** how long an answer serves; RESERVES_LIMITS.cacheMs by default */
  ttlMs?: number
  now?: () => number
}

export type AttestationAnswer = RenderAttestationPackReturnType & {
  /** the block has its confirmations and nothing mined by then awaits settling: the pack never changes */
  final: boolean
}

export type ReservesReader = {
  /** GET /api/reserves: getReservesOrThrow, at most once per interval however many callers */
  reserves: () => Promise<ApiReserves>
  /** GET /api/reserves/lookup: listBackedMints, at most once per interval for one address or transaction */
  lookup: (query: ReserveLookupQuery) => Promise<ApiReserveLookup>
  /** GET /api/reserves/history: readReserveHistory, at most once per interval for one window */
  history: (query: ReserveHistoryQuery) => Promise<ApiReserveHistory>
  /**
   * GET /api/reserves/attestation?block=N: the pack of block N rendered (renderAttestationPack), and whether it is
   * final (the block has its confirmations and the desk settled every mint and burn mined by then: the same block
   * then always gives the same bytes). A final pack is kept RESERVES_LIMITS.attestationCacheMs, another `ttlMs`; the
   * chain's head is read at most once per `ttlMs`. 422 validation_failed for a block beyond the head, 503 not_ready
   * when the chain cannot be read.
   */
  attestation: (blockNumber: bigint) => Promise<AttestationAnswer>
  /** the newest block with its confirmations (the page's default attestation block); 503 not_ready as above */
  confirmedBlock: () => Promise<bigint>
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
  const heads = createSingleFlightCache<bigint>({ ttlMs, maxEntries: 1, now: p.now })
  const recentPacks = createSingleFlightCache<AttestationAnswer>({
    ttlMs,
    maxEntries: RESERVES_LIMITS.attestationEntries,
    retain: (answer) => answer.pack.bars.length <= RESERVES_LIMITS.attestationRetainBars,
    now: p.now,
  })
  const finalPacks = createSingleFlightCache<AttestationAnswer>({
    ttlMs: RESERVES_LIMITS.attestationCacheMs,
    maxEntries: RESERVES_LIMITS.attestationEntries,
    retain: (answer) => answer.final && answer.pack.bars.length <= RESERVES_LIMITS.attestationRetainBars,
    now: p.now,
  })
  const confirmations = BigInt(Math.max(1, p.confirmations ?? 1))
  const chainOrThrow = () => {
    const { chain, chainId, tokenAddress } = p.reserves
    if (!chain || !chainId || !tokenAddress)
      throw new NotReadyError('The attestation needs the chain, and no chain is configured.')
    return { chain, chainId, tokenAddress }
  }
  const unreadable = (error: unknown): never => {
    if (error instanceof ValidationError || error instanceof NotReadyError) throw error
    p.reserves.onChainError?.(error)
    throw new NotReadyError('The chain cannot be read right now: try again in a minute.')
  }
  const head = () => {
    const { chain } = chainOrThrow()
    return heads.get('head', () => chain.getBlockNumber()).catch(unreadable)
  }
  const readPack = async (blockNumber: bigint): Promise<AttestationAnswer> => {
    const c = chainOrThrow()
    const latest = await head()
    if (blockNumber > latest)
      throw new ValidationError(
        [{ path: 'block', message: `is beyond the chain's head (block ${latest})` }],
        'The block does not exist yet.',
      )
    // settled first: a pack read after a settling that this check missed is only ever newer
    const confirmed = latest - blockNumber + 1n >= confirmations
    const unsettled = confirmed ? await readUnsettledAtBlock(db, { blockNumber }) : true
    const pack = await readAttestationPack(db, { ...c, blockNumber }).catch(unreadable)
    return { ...renderAttestationPack(pack), final: confirmed && !unsettled }
  }
  return {
    attestation: async (blockNumber) => {
      const key = `block:${blockNumber}`
      const answer = await finalPacks.get(key, () => recentPacks.get(key, () => readPack(blockNumber)))
      return answer
    },
    confirmedBlock: async () => {
      const latest = await head()
      return latest + 1n >= confirmations ? latest + 1n - confirmations : 0n
    },
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
      heads.clear()
      recentPacks.clear()
      finalPacks.clear()
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
