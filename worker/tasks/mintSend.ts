import { z } from 'zod'
import { mintSendJobKey } from '@/lib/jobs/jobKeys'
import type { MintSendPayload } from '@/lib/jobs/payloadTypes'
import type { MintOrder } from '../db/readMintOrderRow'
import { mintKind } from '../operations/mintKind'
import type { SendQueue } from '../operations/SendQueue'

/**
 * mint_send's payload as queued by the web with the order (lib/jobs/payloadTypes.ts), checked when the job runs, by
 * the send task, its SQS face and a batch that claims such jobs.
 */
export const mintSendPayload = z.object({ orderId: z.guid() }) satisfies z.ZodType<MintSendPayload>

/**
 * mint_send: one approved mint order's attestAndMint through the one send path (the mint kind,
 * docs/decisions/057-every-kind-batches.md), its reserve check and mint controls passed before signing; the signer's
 * confirmer follows it to its confirmations.
 * Run by the one send task (worker/tasks/sendTask.ts) and batched like every kind.
 */
export const mintSendQueue: SendQueue<MintOrder, MintSendPayload> = {
  kind: mintKind,
  payload: mintSendPayload,
  idOf: (p) => p.orderId,
  payloadOf: (orderId) => ({ orderId }),
  jobKeyOf: mintSendJobKey,
}
