import { z } from 'zod'
import { FAILURE_REASONS } from '@/lib/errors/jobs'
import { mintStatuses } from './apiTypes'

/**
 * The answers of the mint routes (docs/api.md "Mint orders") as zod schemas: lib/web/mint/apiTypes.ts infers its
 * types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Amounts and weights are
 * decimal strings, times ISO 8601 strings.
 */

const mintStatus = z.enum(mintStatuses)

/** 202 answer of POST /api/gold/mint with a job: an order below the approval threshold */
const mintAcceptedPendingSchema = z.object({
  orderId: z.string(),
  /** graphile-worker job id, as a string (it is a bigint) */
  jobId: z.string(),
  status: z.literal('pending'),
  statusUrl: z.string(),
})

/** 202 answer of POST /api/gold/mint for an order that awaits its approvers: no job yet */
const mintAcceptedAwaitingSchema = z.object({
  orderId: z.string(),
  status: z.literal('awaiting_approval'),
  statusUrl: z.string(),
})

/** 202 answer of POST /api/gold/mint; stored with the order and returned again on a replay */
export const mintAcceptedSchema = z.discriminatedUnion('status', [
  mintAcceptedPendingSchema,
  mintAcceptedAwaitingSchema,
])

/** One bar of an order's vault proof: THE bar shape of every view and API (the staff's order, the admin's job). */
export const mintBarSchema = z
  .object({
    serial: z.string(),
    refiner: z.string(),
    year: z.number().int(),
    /** troy ounces, 3 decimals */
    grossOz: z.string(),
    /** parts per thousand, e.g. "999.9" */
    fineness: z.string(),
    /** troy ounces, 3 decimals */
    fineOz: z.string(),
  })
  .meta({ id: 'MintBar' })

export const mintVaultProofSchema = z.object({
  vault: z.string(),
  receiptRef: z.string(),
  documentSha256: z.string(),
  bars: z.array(mintBarSchema),
})

export const mintTxSchema = z.object({
  hash: z.string().nullable(),
  nonce: z.number().int().nullable(),
  blockNumber: z.number().int().nullable(),
  /** null while unknown; the web never asks the chain for it */
  confirmations: z.number().int().nullable(),
})

export const mintTimelineEntrySchema = z.object({ at: z.string(), event: z.string(), detail: z.string().nullable() })

/** Four eyes: the second person's decision on an order that needed one. */
export const mintOrderDecisionSchema = z.object({
  outcome: z.enum(['approved', 'rejected']),
  /** e-mail of the approver or admin who decided */
  by: z.string(),
  at: z.string(),
  /** why it was rejected; null for an approval */
  reason: z.string().nullable(),
})

/**
 * How an order ended without a mint: failed, rejected or cancelled; what its page says first. `reason` is a code of
 * docs/api.md "Failure reasons" (never an error's text), `text` its sentence.
 */
export const mintOrderOutcomeSchema = z.object({
  status: z.enum(['failed', 'rejected', 'cancelled']),
  reason: z.enum(FAILURE_REASONS),
  /** with `attempts_exhausted`: the code of the last attempt's failure; else null */
  lastError: z.enum(FAILURE_REASONS).nullable(),
  /** the reason's sentence (and the last attempt's), for people */
  text: z.string(),
  /** e-mail of who ended it (the approver who rejected it, the admin who cancelled it); null for a failure */
  by: z.string().nullable(),
  at: z.string(),
  /** a rejection's reason as its approver wrote it; else null */
  note: z.string().nullable(),
})

/** GET /api/gold/mint/{orderId}, and the answer of its approve and reject */
export const mintOrderSchema = z
  .object({
    orderId: z.string(),
    status: mintStatus,
    to: z.string(),
    /** fine troy ounces = tokens, 3 decimals */
    amount: z.string(),
    /** e-mail of the user who requested it */
    requestedBy: z.string(),
    createdAt: z.string(),
    /** the approval or rejection by a second person; null while none was made (or none was needed) */
    decision: mintOrderDecisionSchema.nullable(),
    /** how a failed, rejected or cancelled order ended; null for every other status */
    outcome: mintOrderOutcomeSchema.nullable(),
    /** null until the worker has reserved a nonce or signed a transaction */
    tx: mintTxSchema.nullable(),
    vaultProof: mintVaultProofSchema,
    timeline: z.array(mintTimelineEntrySchema),
  })
  .meta({ id: 'MintOrder' })

/** One item of GET /api/gold/mint */
export const mintOrderSummarySchema = z.object({
  orderId: z.string(),
  status: mintStatus,
  to: z.string(),
  amount: z.string(),
  vault: z.string(),
  requestedBy: z.string(),
  createdAt: z.string(),
  txHash: z.string().nullable(),
})

/** GET /api/gold/mint */
export const mintOrderListSchema = z.object({
  items: z.array(mintOrderSummarySchema),
  nextCursor: z.string().nullable(),
})
