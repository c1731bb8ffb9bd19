/** The limits of the public reserves routes (docs/api.md "Reserves"), per web process. */
export const RESERVES_LIMITS = {
  /** how long an answer is served after it was read: one chain read and one set of sums per interval */
  cacheMs: 5_000,
  /** lookups kept (by address or transaction) */
  lookupEntries: 1_000,
  /** a lookup answer with more bars than this is shared by its concurrent callers but not kept */
  lookupRetainBars: 1_000,
  /** GET /api/reserves/history: the points of one answer, whatever its window */
  historyPoints: 120,
  /** ...and its longest window, in days */
  historyMaxDays: 365,
  /** GET /api/reserves/attestation: how long a final pack (a block past its confirmations, all settled) is kept */
  attestationCacheMs: 600_000,
  /** ...packs kept (by block), final or recent */
  attestationEntries: 8,
  /** a pack with more bars than this is shared by its concurrent callers but not kept */
  attestationRetainBars: 20_000,
  /** per client (its IP, lib/web/auth/getClientIp): this many requests at once, all its routes together */
  burst: 60,
  /** then this many a second */
  perSecond: 1,
} as const
