import type { z } from 'zod'
import type { MintStatus } from '@/db/schema/mint'
import type {
  mintAcceptedSchema,
  mintBarSchema,
  mintOrderDecisionSchema,
  mintOrderListSchema,
  mintOrderOutcomeSchema,
  mintOrderSchema,
  mintOrderSummarySchema,
  mintTimelineEntrySchema,
  mintTxSchema,
  mintVaultProofSchema,
} from './responseSchemas'

// The API's data shapes (docs/api.md), shared by the route handlers, the server pages and
// the client components. Amounts and weights are decimal strings; times ISO 8601. The answers' types are inferred
// from their zod schemas (./responseSchemas.ts, which the OpenAPI document describes the routes with); the import is
// type-only, so a client component reading this file loads no schema.

export type { MintStatus }

export const mintStatuses = [
  'awaiting_approval',
  'pending',
  'submitted',
  'confirmed',
  'failed',
  'rejected',
  'cancelled',
] as const satisfies readonly MintStatus[]

/** Statuses in which an order still changes on its own (the pages poll while any is shown). */
export const inFlightStatuses: readonly MintStatus[] = ['pending', 'submitted']

/** 202 answer of POST /api/gold/mint; stored with the order and returned again on a replay. */
export type ApiMintAccepted = z.infer<typeof mintAcceptedSchema>

/** One bar of an order's vault proof: THE bar shape of every view and API (lib/web/mint/toApiMintBar.ts writes it). */
export type ApiMintBar = z.infer<typeof mintBarSchema>

export type ApiMintVaultProof = z.infer<typeof mintVaultProofSchema>

export type ApiMintTx = z.infer<typeof mintTxSchema>

export type ApiMintTimelineEntry = z.infer<typeof mintTimelineEntrySchema>

/** Four eyes: the second person's decision on an order that needed one. */
export type ApiMintOrderDecision = z.infer<typeof mintOrderDecisionSchema>

/** How a failed, rejected or cancelled order ended (the order page says it first). */
export type ApiMintOrderOutcome = z.infer<typeof mintOrderOutcomeSchema>

/** GET /api/gold/mint/{orderId} */
export type ApiMintOrder = z.infer<typeof mintOrderSchema>

/** One item of GET /api/gold/mint */
export type ApiMintOrderSummary = z.infer<typeof mintOrderSummarySchema>

/** GET /api/gold/mint */
export type ApiMintOrderList = z.infer<typeof mintOrderListSchema>
