import type { z } from 'zod'
import type {
  attestationBarListSchema,
  attestationBarSchema,
  attestationPackSchema,
  backedMintSchema,
  backingBarSchema,
  lookupBarSchema,
  reserveCheckSchema,
  reserveHistorySchema,
  reserveLookupSchema,
  reserveStatusSchema,
  reservesSchema,
} from './responseSchemas'

/**
 * The JSON of the public reserves routes (docs/api.md "Reserves"), inferred from their zod schemas
 * (./responseSchemas.ts, which the OpenAPI document describes the routes with). Weights and supply are decimal strings
 * in fine troy ounces, times ISO 8601 strings. The import is type-only: a component reading this file loads no schema.
 */

/** the same values as reserve_checks.status (db/schema/reserves.ts) */
export type ApiReserveStatus = z.infer<typeof reserveStatusSchema>

/** One reconciliation check (the worker's reserve_check task), as the admin and the public page show it. */
export type ApiReserveCheck = z.infer<typeof reserveCheckSchema>

/** GET /api/reserves */
export type ApiReserves = z.infer<typeof reservesSchema>

/** GET /api/reserves/history?days= */
export type ApiReserveHistory = z.infer<typeof reserveHistorySchema>

/** A bar backing a mint, as the lookup lists it. */
export type ApiBackingBar = z.infer<typeof backingBarSchema>

/** One confirmed mint and the bars that back it. */
export type ApiBackedMint = z.infer<typeof backedMintSchema>

/** A bar of a serial's lookup, with its status. */
export type ApiLookupBar = z.infer<typeof lookupBarSchema>

/** GET /api/reserves/lookup?address= | ?tx= | ?serial= */
export type ApiReserveLookup = z.infer<typeof reserveLookupSchema>

/** GET /api/reserves/attestation?block=N (JSON) */
export type ApiAttestationPack = z.infer<typeof attestationPackSchema>

/** One backing bar of the pack (a row of its CSV). */
export type ApiAttestationBar = z.infer<typeof attestationBarSchema>

/** A vault's bar list in force at the pack's block. */
export type ApiAttestationBarList = z.infer<typeof attestationBarListSchema>
