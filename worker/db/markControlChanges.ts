import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type ControlChangeStatus, controlChanges } from '@/db/schema'

export type MarkControlChangesSubmittedParameters = {
  ids: readonly string[]
  /** the statuses it may leave (a send: pending, or failed after an admin's retry) */
  from: readonly ControlChangeStatus[]
}

/**
 * Control changes locked by the caller -> submitted: their applyControlChange transaction is known to
 * the node (or, reopened, mined). Returns the ids whose status changed.
 */
export async function markControlChangesSubmitted(
  tx: Tx,
  { ids, from }: MarkControlChangesSubmittedParameters,
): Promise<string[]> {
  if (ids.length === 0) return []
  const rows = await tx
    .update(controlChanges)
    .set({ status: 'submitted', failureReason: null, updatedAt: new Date() })
    .where(and(inArray(controlChanges.id, [...ids]), inArray(controlChanges.status, [...from])))
    .returning({ id: controlChanges.id })
  return rows.map((r) => r.id)
}

export type MarkControlChangesAppliedParameters = {
  done: readonly { id: string; txHash: string; blockNumber: bigint }[]
}

/** Control changes whose applyControlChange call has its confirmations -> applied, with the mined transaction. */
export async function markControlChangesApplied(tx: Tx, { done }: MarkControlChangesAppliedParameters): Promise<void> {
  for (const d of done)
    await tx
      .update(controlChanges)
      .set({ status: 'applied', txHash: d.txHash, blockNumber: d.blockNumber, updatedAt: new Date() })
      .where(and(eq(controlChanges.id, d.id), inArray(controlChanges.status, ['pending', 'submitted', 'failed'])))
}

export type MarkControlChangeFailedParameters = {
  id: string
  reason: string
  /** the statuses it may leave: pending (its send job dead), submitted (its mined call reverted) */
  from: readonly ControlChangeStatus[]
}

/** A control change that did not apply -> failed, with the reason; returns whether it changed. */
export async function markControlChangeFailed(
  tx: Tx,
  { id, reason, from }: MarkControlChangeFailedParameters,
): Promise<boolean> {
  const rows = await tx
    .update(controlChanges)
    .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
    .where(and(eq(controlChanges.id, id), inArray(controlChanges.status, [...from])))
    .returning({ id: controlChanges.id })
  return rows.length > 0
}
