import { getAddress, isAddress } from 'viem'
import { z } from 'zod'

const address = z
  .string()
  .refine((a) => isAddress(a, { strict: false }), 'a 20-byte hex address: 0x followed by 40 hex digits')
  .transform((a) => getAddress(a))

const nonce = z.coerce.number().int('a whole number').min(0).max(Number.MAX_SAFE_INTEGER)

/** `{address}` of /api/admin/signers/{address}/... */
export const signerParamsSchema = z.object({ address })

/** `{address}` and `{nonce}` of /api/admin/signers/{address}/nonces/{nonce}/... */
export const signerNonceParamsSchema = z.object({ address, nonce })

/** wei as a decimal string: at least 1, at most 78 digits (numeric(78)) */
const wei = z
  .string()
  .regex(/^[1-9][0-9]{0,77}$/, 'wei as a decimal string, at least 1')
  .transform((w) => BigInt(w))

/**
 * POST /api/admin/signers/{address}/nonces/{nonce}/speed-up: the fees to re-sign the nonce's own transaction at, wei
 * as decimal strings; the tip at most the max fee
 */
export const speedUpBodySchema = z
  .strictObject({ maxFeePerGas: wei, maxPriorityFeePerGas: wei })
  .refine((b) => b.maxPriorityFeePerGas <= b.maxFeePerGas, {
    path: ['maxPriorityFeePerGas'],
    message: 'at most maxFeePerGas',
  })

/**
 * POST /api/admin/signers/{address}/nonces/{nonce}/cancel: the author's EIP-712 signature of the nonce.cancel change
 * (its typed data from POST /api/admin/changes/typed-data with kind nonce.cancel), with the id and deadline it gave
 */
export const cancelNonceBodySchema = z.strictObject({
  changeId: z.uuid('a uuid, as POST /api/admin/changes/typed-data gave it'),
  deadline: z.iso.datetime({ offset: true }),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130,}$/, 'a hex signature of at least 65 bytes')
    .max(10_000),
})
