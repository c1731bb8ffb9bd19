import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type RedemptionStatus, redemptions } from '@/db/schema'

export type MarkRedemptionsSubmittedParameters = {
  ids: readonly string[]
  /** the statuses it may leave (a send: pending, or failed after an admin's retry; a reorg: burned) */
  from: readonly RedemptionStatus[]
}

/**
 * Redemptions locked by the caller -> submitted: their burn is known to the node (or, reopened, mined). A
 * burned one reorged away also gives its bars back to backing until the burn is mined again. Returns the ids
 * whose status changed.
 */
export async function markRedemptionsSubmitted(
  tx: Tx,
  { ids, from }: MarkRedemptionsSubmittedParameters,
): Promise<string[]> {
  if (ids.length === 0) return []
  const rows = await tx
    .update(redemptions)
    .set({
      status: 'submitted',
      failureReason: null,
      submittedAt: sql`coalesce(${redemptions.submittedAt}, now())`,
      burnedAt: null,
      updatedAt: new Date(),
    })
    .where(and(inArray(redemptions.id, [...ids]), inArray(redemptions.status, [...from])))
    .returning({ id: redemptions.id })
  const changed = rows.map((r) => r.id)
  if (changed.length > 0 && from.includes('burned'))
    await tx.execute(sql`
      update vault_bars set status = 'backing', updated_at = now()
      where redemption_id = any(${`{${changed.join(',')}}`}::uuid[]) and status = 'redeemed'`)
  return changed
}

export type MarkRedemptionsBurnedParameters = {
  done: readonly { id: string; txHash: string; blockNumber: bigint }[]
}

/**
 * Redemptions whose burn has its confirmations -> burned, with the mined transaction; their bars leave backing:
 * redeemed, still naming the order they backed and the redemption. Returns the ids that changed.
 */
export async function markRedemptionsBurned(tx: Tx, { done }: MarkRedemptionsBurnedParameters): Promise<string[]> {
  const changed: string[] = []
  for (const d of done) {
    const rows = await tx
      .update(redemptions)
      .set({
        status: 'burned',
        txHash: d.txHash,
        blockNumber: d.blockNumber,
        burnedAt: sql`now()`,
        updatedAt: new Date(),
      })
      .where(
        and(eq(redemptions.id, d.id), inArray(redemptions.status, ['pending', 'submitted', 'failed', 'cancelled'])),
      )
      .returning({ id: redemptions.id })
    if (rows.length === 0) continue
    changed.push(d.id)
    await tx.execute(sql`
      update vault_bars b set status = 'redeemed', redemption_id = rb.redemption_id, updated_at = now()
      from redemption_bars rb
      where rb.redemption_id = ${d.id}::uuid and b.id = rb.bar_id`)
  }
  return changed
}

export type MarkRedemptionFailedParameters = {
  id: string
  reason: string
  /** the statuses it may leave: pending (its send job dead), submitted (its mined burn reverted) */
  from: readonly RedemptionStatus[]
}

/** A redemption whose burn did not happen -> failed, with the reason; it keeps its deposit and bars for a retry. */
export async function markRedemptionFailed(
  tx: Tx,
  { id, reason, from }: MarkRedemptionFailedParameters,
): Promise<boolean> {
  const rows = await tx
    .update(redemptions)
    .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
    .where(and(eq(redemptions.id, id), inArray(redemptions.status, [...from])))
    .returning({ id: redemptions.id })
  return rows.length > 0
}
