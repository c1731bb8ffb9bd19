import { z } from 'zod'

/**
 * The answers of the public reserves routes (docs/api.md "Reserves") as zod schemas: lib/web/reserves/apiTypes.ts
 * infers its types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Weights and
 * supply are decimal strings in fine troy ounces (1 token = 1 fine oz), never floats; times are ISO 8601 strings.
 */

/** the same values as reserve_checks.status (db/schema/reserves.ts), written out: components read this file */
export const reserveStatusSchema = z.enum(['covered', 'shortfall'])

/** One reconciliation check (the worker's reserve_check task), as the admin and the public page show it. */
export const reserveCheckSchema = z
  .object({
    at: z.string(),
    /** seconds since the check, when it was read */
    ageSeconds: z.number(),
    blockNumber: z.string(),
    totalSupply: z.string(),
    backingFineOz: z.string(),
    inFlightFineOz: z.string(),
    availableFineOz: z.string(),
    missingFineOz: z.string(),
    shortfallOz: z.string(),
    status: reserveStatusSchema,
  })
  .meta({ id: 'ReserveCheck' })

/** GET /api/reserves */
export const reservesSchema = z.object({
  /** when the figures were read: now when read from the chain, the check's time when from the latest check */
  asOf: z.string(),
  /** chain: supply read from the chain now; check: the chain could not be read, the latest check's figures */
  source: z.enum(['chain', 'check']),
  chainId: z.number().int().nullable(),
  tokenAddress: z.string().nullable(),
  /** the block whose total supply is shown */
  blockNumber: z.string(),
  /** the token's on-chain total supply, oz */
  totalSupply: z.string(),
  /** bars of confirmed orders present in the latest lists */
  backingFineOz: z.string(),
  /** bars of orders signed or submitted but not yet confirmed (their tokens may already be on chain) */
  inFlightFineOz: z.string(),
  /** listed bars held by no order */
  availableFineOz: z.string(),
  /** bars held by an order that the latest list lacks: they back nothing */
  missingFineOz: z.string(),
  /** max(0, totalSupply - backingFineOz - inFlightFineOz) */
  shortfallOz: z.string(),
  status: reserveStatusSchema,
  /** GoldMinter's redemption address: holders redeem by sending tokens there (null when the chain is not read) */
  redemptionAddress: z.string().nullable(),
  /** bars of burned redemptions: out of backing, their tokens gone */
  redeemedFineOz: z.string(),
  /** the latest list of each vault */
  barLists: z.array(z.object({ vault: z.string(), asOf: z.string() })),
  /** the latest reconciliation check, if one was made */
  lastCheck: reserveCheckSchema.nullable(),
})

/** GET /api/reserves/history?days= */
export const reserveHistorySchema = z.object({
  /** the window asked for, in days back from now */
  days: z.number().int(),
  /** the latest check of each equal span of the window, oldest first; a span without a check has none */
  points: z.array(
    z.object({
      at: z.string(),
      /** the token's on-chain total supply at the check's block, oz */
      totalSupply: z.string(),
      backingFineOz: z.string(),
      inFlightFineOz: z.string(),
      status: reserveStatusSchema,
    }),
  ),
})

/** A bar backing a mint, as the lookup lists it. */
export const backingBarSchema = z.object({
  serial: z.string(),
  refiner: z.string(),
  vault: z.string(),
  fineOz: z.string(),
  /** backing, missing when the vault's latest list lacks it, redeemed once a burn took it out of backing */
  status: z.string(),
  /** the burn that redeemed the bar: its tokens are gone from the supply */
  redeemed: z.object({ redemptionId: z.string(), txHash: z.string() }).nullable(),
})

/** One confirmed mint and the bars that back it. */
export const backedMintSchema = z.object({
  orderId: z.string(),
  to: z.string(),
  amount: z.string(),
  txHash: z.string(),
  blockNumber: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  bars: z.array(backingBarSchema),
})

/** A bar a serial's lookup names: where it is and what it does now (available: free, backing no token). */
export const lookupBarSchema = z.object({
  serial: z.string(),
  refiner: z.string(),
  vault: z.string(),
  fineOz: z.string(),
  /** available, reserved, backing, missing, withdrawn or redeemed */
  status: z.string(),
})

/** GET /api/reserves/lookup?address= | ?tx= | ?serial= */
export const reserveLookupSchema = z.object({
  query: z.union([z.object({ address: z.string() }), z.object({ tx: z.string() }), z.object({ serial: z.string() })]),
  /** newest first */
  mints: z.array(backedMintSchema),
  /** more confirmed mints than listed (an address with many mints): the newest are shown */
  truncated: z.boolean(),
  /** a serial's lookup only: the bars of that serial, whichever their status */
  bars: z.array(lookupBarSchema).optional(),
})

/**
 * One bar backing the supply at the attested block: its order's mint was mined by then and no burn mined by then
 * took it.
 */
export const attestationBarSchema = z.object({
  vault: z.string(),
  serial: z.string(),
  refiner: z.string(),
  fineOz: z.string(),
  /** the mint order the bar backs */
  orderId: z.string(),
  /** the mint's transaction and the block it was mined in (at or before the attested block) */
  txHash: z.string(),
  blockNumber: z.string(),
})

/**
 * A vault's bar list in force at the attested block: the newest (by asOf) that the desk had imported by the block's
 * time.
 */
export const attestationBarListSchema = z.object({
  vault: z.string(),
  listId: z.string(),
  asOf: z.string(),
  importedAt: z.string(),
  /**
   * the StandardMerkleTree root of its bars, the signed total, the custodian key and its EIP-712 signature (null: a
   * list from before signatures)
   */
  barsRoot: z.string().nullable(),
  totalFineOz: z.string().nullable(),
  signer: z.string().nullable(),
  custodianSignature: z.string().nullable(),
  /**
   * bars in the list, and how many of them the desk recorded as members (fewer only for lists imported before
   * migration 0036)
   */
  barCount: z.number().int(),
  membersRecorded: z.number().int(),
})

/** GET /api/reserves/attestation?block=N: the point-in-time pack (docs/decisions/061-attestation-pack.md) */
export const attestationPackSchema = z
  .object({
    kind: z.literal('mintdesk.reserves-attestation'),
    version: z.literal(1),
    chainId: z.number().int(),
    tokenAddress: z.string(),
    block: z.object({ number: z.string(), hash: z.string(), timestamp: z.string() }),
    /** the token's totalSupply read at the block, oz */
    totalSupply: z.string(),
    /** by vault */
    barLists: z.array(attestationBarListSchema),
    /** by vault, serial, refiner (their keys, byte order), then the order's block and id */
    bars: z.array(attestationBarSchema),
    totals: z.object({
      totalSupply: z.string(),
      backingFineOz: z.string(),
      /** totalSupply - backingFineOz: negative when more backs the supply than it needs */
      differenceOz: z.string(),
      status: reserveStatusSchema,
    }),
  })
  .meta({ id: 'AttestationPack' })
