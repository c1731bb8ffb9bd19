import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintOrders, mintStatus } from '@/db/schema'
import { markBarsBacking } from '@/lib/vault/markBarsBacking'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'

export type MarkOrderConfirmedParameters = { orderId: string; txHash: string; blockNumber: bigint }

/** The order's mint has its confirmations: the mined hash and block are recorded. */
export async function markOrderConfirmed(tx: Tx, { orderId, txHash, blockNumber }: MarkOrderConfirmedParameters): Promise<void> {
  // the mint.confirmed event in this transaction, unless the order already was (issue 16: the outbox)
  await recordMintEvent(tx, { type: 'mint.confirmed', orderId, status: 'confirmed', from: NOT_CONFIRMED, data: { txHash } })
  const now = new Date()
  await tx
    .update(mintOrders)
    .set({ status: 'confirmed', txHash, blockNumber, confirmedAt: now, failureReason: null, updatedAt: now })
    .where(eq(mintOrders.id, orderId))
  // its bars now back its tokens, in the same transaction (ARCHITECTURE.md invariant 4)
  await markBarsBacking(tx, { orderId })
}

const NOT_CONFIRMED = mintStatus.enumValues.filter((status) => status !== 'confirmed')
