import { z } from 'zod'

/** The body of POST /api/me/signing-key: the key's address and its personal_sign of the challenge text. */
export const bindSigningKeySchema = z.object({ address: z.string().max(64), signature: z.string().max(10_000) })
