import type { Tx } from '@/db/client'
import { TASK } from '@/lib/jobs/jobKeys'
import { markOrderFailed } from './markOrderFailed'

export type FailOrderOfDeadJobParameters = { task: string; orderId: string | null; reason: string }

/**
 * What a dead job means for its order. A dead mint_send: the order is `failed` with the
 * reason (unless it already got further: submitted, confirmed or cancelled). A dead
 * mint_confirm leaves the order `submitted`: its transaction is signed and may be, or
 * become, mined, so `failed` would be a lie; the dead letter is what the admin sees
 * (docs/decisions/006-exactly-once-mints.md).
 */
export async function failOrderOfDeadJob(tx: Tx, { task, orderId, reason }: FailOrderOfDeadJobParameters): Promise<boolean> {
  if (task !== TASK.mintSend || !orderId) return false
  return markOrderFailed(tx, { orderId, reason, from: ['pending', 'failed'] })
}
