import type { Tx } from '@/db/client'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { ORDER_TASKS, TASK } from '@/lib/jobs/jobKeys'
import { recordMintEvent } from '@/worker/notifications/recordMintEvent'
import { markOrderFailed } from './markOrderFailed'

export type FailOrderOfDeadJobParameters = { task: string; orderId: string | null; reason: string }

/**
 * What a dead job means for its order. A dead mint_send: the order is `failed` with the
 * reason (unless it already got further: submitted, confirmed or cancelled). A dead
 * order_confirm leaves the order `submitted`: its transaction is signed and may be, or
 * become, mined, so `failed` would be a lie; the dead letter is what the admin sees
 * (docs/decisions/025-exactly-once-mints.md). Either way a mint.dead_letter event is written
 * (worker/notifications/recordMintEvent).
 */
export async function failOrderOfDeadJob(
  tx: Tx,
  { task, orderId, reason }: FailOrderOfDeadJobParameters,
): Promise<boolean> {
  if (!orderId || !ORDER_TASKS.includes(task)) return false
  const failed =
    task === TASK.mintSend ? await markOrderFailed(tx, { orderId, reason, from: ['pending', 'failed'] }) : false
  // every dead mint job is a mint.dead_letter event, in the transaction that records it dead
  await recordMintEvent(tx, {
    type: 'mint.dead_letter',
    orderId,
    status: null,
    from: null,
    data: { task, reason: redactSecrets(reason).slice(0, 2000) },
  })
  return failed
}
