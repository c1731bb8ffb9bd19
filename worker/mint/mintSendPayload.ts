import { z } from 'zod'

/**
 * mint_send's payload, queued by the intake with the order (job key mint_send:<orderId>); read by the task and by a
 * batch that claims such jobs.
 */
export const mintSendPayload = z.object({ orderId: z.guid() })
export type MintSendPayload = z.infer<typeof mintSendPayload>
