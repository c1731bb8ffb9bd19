import { z } from 'zod'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import { RESERVES_LIMITS } from './limits'

/**
 * GET /api/reserves/lookup?address=0x... | ?tx=0x... | ?serial=...: exactly one of the three, each a single value (a
 * repeated key is an array and fails). Output: `{ address }`, `{ tx }` or `{ serial }`, the serial compared as bar
 * lists are (without case, spaces or dashes: lib/vault/normalizeBarKey.ts).
 */
export const reserveLookupQuerySchema = z
  .object({
    address: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be an address: 0x and 40 hex digits' })
      .optional(),
    tx: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash: 0x and 64 hex digits' })
      .optional(),
    serial: z
      .string()
      .max(64, { error: 'a bar serial is at most 64 characters' })
      .superRefine((value, ctx) => {
        const key = normalizeBarKey(value)
        if (!key.ok) ctx.addIssue({ code: 'custom', message: key.message })
      })
      .optional(),
  })
  .transform(({ address, tx, serial }, ctx): { address: string } | { tx: string } | { serial: string } => {
    const given = [address, tx, serial].filter((v) => v !== undefined).length
    if (given === 1 && tx !== undefined) return { tx }
    if (given === 1 && address !== undefined) return { address }
    if (given === 1 && serial !== undefined) return { serial }
    ctx.addIssue({
      code: 'custom',
      path: [address === undefined ? 'address' : tx === undefined ? 'serial' : 'tx'],
      message: 'give exactly one of address, tx and serial',
    })
    return z.NEVER
  })

export type ReserveLookupQuery = z.output<typeof reserveLookupQuerySchema>

const DAYS_ERROR = `must be a whole number of days from 1 to ${RESERVES_LIMITS.historyMaxDays}`

/** GET /api/reserves/history?days=: 30 when absent or empty */
export const reserveHistoryQuerySchema = z.object({
  days: z.preprocess(
    (v) => (v === '' || v === undefined ? '30' : v),
    z
      .string()
      .regex(/^[0-9]{1,3}$/, { error: DAYS_ERROR })
      .transform(Number)
      .pipe(z.number().int().min(1, { error: DAYS_ERROR }).max(RESERVES_LIMITS.historyMaxDays, { error: DAYS_ERROR })),
  ),
})

export type ReserveHistoryQuery = z.output<typeof reserveHistoryQuerySchema>

const BLOCK_ERROR = 'must be a block number: a whole number from 0, in decimal digits'

/**
 * GET /api/reserves/attestation?block=N[&format=json|csv]: the block as decimal digits (no sign, no exponent, at most
 * 19 digits: a bigint), the format JSON unless `csv` (or an `Accept: text/csv` header:
 * lib/web/reserves/attestationResponse.ts).
 */
export const attestationQuerySchema = z.object({
  block: z
    .string({ error: 'give the block: ?block=N' })
    .regex(/^[0-9]{1,19}$/, { error: BLOCK_ERROR })
    .transform((v) => BigInt(v))
    .refine((v) => v <= 9_223_372_036_854_775_807n, { error: BLOCK_ERROR }),
  format: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional(),
  ),
})

export type AttestationQuery = z.output<typeof attestationQuerySchema>
