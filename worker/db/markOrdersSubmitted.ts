import { and, inArray, sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintOrders } from '@/db/schema'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'

export type MarkOrdersSubmittedParameters = {
  /** orders locked by the caller, with the status read under that lock */
  orders: readonly { id: string; status: string }[]
}

/**
 * markOrderSubmitted for a send batch, in one statement: pending (or failed, after an
 * admin retry) -> submitted once their transactions are known to the node. An order
 * coming back from failed holds its bars again (markBarsReserved); a pending one never
 * let them go. Returns the ids whose status changed.
 */
export async function markOrdersSubmitted(tx: Tx, { orders }: MarkOrdersSubmittedParameters): Promise<string[]> {
  const ids = orders.filter((o) => o.status === 'pending' || o.status === 'failed').map((o) => o.id)
  if (ids.length === 0) return []
  const rows = await tx
    .update(mintOrders)
    .set({
      status: 'submitted',
      submittedAt: sql`coalesce(${mintOrders.submittedAt}, now())`,
      failureReason: null,
      updatedAt: new Date(),
    })
    .where(and(inArray(mintOrders.id, ids), inArray(mintOrders.status, ['pending', 'failed'])))
    .returning({ id: mintOrders.id })
  const changed = new Set(rows.map((r) => r.id))
  for (const o of orders) if (o.status === 'failed' && changed.has(o.id)) await markBarsReserved(tx, { orderId: o.id })
  return [...changed]
}
