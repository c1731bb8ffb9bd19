import { z } from 'zod'

/**
 * The 202 answers of the operator's nonce actions (docs/decisions/064-operator-nonce-actions.md) as zod schemas:
 * their domain functions' types are inferred from them, and the OpenAPI document (lib/web/openapi) describes the
 * routes with them. Addresses checksummed, job ids strings (bigints).
 */

/** POST /api/admin/signers/{address}/nonces/{nonce}/speed-up: the nonce_speed_up job queued */
export const nonceSpeedUpQueuedSchema = z.object({
  jobId: z.string(),
  signerAddress: z.string(),
  nonce: z.number().int(),
})

/** POST /api/admin/signers/{address}/resync: the nonce_resync job queued */
export const signerResyncQueuedSchema = z.object({ jobId: z.string(), signerAddress: z.string() })
