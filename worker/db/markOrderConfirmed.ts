import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintOrders } from '@/db/schema'
import { markBarsBacking } from '@/lib/vault/markBarsBacking'

export type MarkOrderConfirmedParameters = { orderId: string; txHash: string; blockNumber: bigint }

/** The order's mint has its confirmations: the mined hash and block are recorded. */
export async function markOrderConfirmed(tx: Tx, { orderId, txHash, blockNumber }: MarkOrderConfirmedParameters): Promise<void> {
  const now = new Date()
  await tx
    .update(mintOrders)
    .set({ status: 'confirmed', txHash, blockNumber, confirmedAt: now, failureReason: null, updatedAt: now })
    .where(eq(mintOrders.id, orderId))
  // its bars now back its tokens, in the same transaction (ARCHITECTURE.md invariant 4)
  await markBarsBacking(tx, { orderId })
}
