import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type MintStatus, mintOrders } from '@/db/schema'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { releaseBars } from '@/lib/vault/releaseBars'
import { recordMintEvent } from '@/worker/notifications/recordMintEvent'

export type MarkOrderFailedParameters = {
  orderId: string
  reason: string
  /** the statuses the order may be failed from (never a confirmed or cancelled one) */
  from?: readonly MintStatus[]
}

/** Marks an order failed with a reason for the admin (URLs redacted); returns whether it changed. */
export async function markOrderFailed(
  tx: Tx,
  { orderId, reason, from = ['pending', 'submitted', 'failed'] }: MarkOrderFailedParameters,
): Promise<boolean> {
  const failureReason = redactSecrets(reason).slice(0, 2000)
  // the mint.failed event in this transaction when the order becomes failed (not when it already was)
  const becoming = from.filter((status) => status !== 'failed')
  await recordMintEvent(tx, {
    type: 'mint.failed',
    orderId,
    status: 'failed',
    from: becoming,
    data: { reason: failureReason },
  })
  const rows = await tx
    .update(mintOrders)
    .set({ status: 'failed', failureReason, updatedAt: new Date() })
    .where(and(eq(mintOrders.id, orderId), inArray(mintOrders.status, [...from])))
    .returning({ id: mintOrders.id })
  // a failed order frees its bars, in the same transaction (docs/architecture.md invariant 4)
  if (rows.length > 0) await releaseBars(tx, { orderId })
  return rows.length > 0
}
