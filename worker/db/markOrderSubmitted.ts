import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type MintStatus, mintOrders } from '@/db/schema'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'

export type MarkOrderSubmittedParameters = {
  orderId: string
  /** pending and failed by default; order_confirm adds cancelled when the chain shows the mint anyway */
  from?: readonly MintStatus[]
}

/**
 * pending (or failed, after an admin retry) -> submitted, once a transaction of the order
 * is known to the node. Returns whether the status changed.
 */
export async function markOrderSubmitted(
  tx: Tx,
  { orderId, from = ['pending', 'failed'] }: MarkOrderSubmittedParameters,
): Promise<boolean> {
  const rows = await tx
    .update(mintOrders)
    .set({
      status: 'submitted',
      submittedAt: sql`coalesce(${mintOrders.submittedAt}, now())`,
      failureReason: null,
      updatedAt: new Date(),
    })
    .where(and(eq(mintOrders.id, orderId), inArray(mintOrders.status, [...from])))
    .returning({ id: mintOrders.id })
  // back in flight (from failed or cancelled): it holds its bars again, in the same transaction
  if (rows.length > 0) await markBarsReserved(tx, { orderId })
  return rows.length > 0
}
