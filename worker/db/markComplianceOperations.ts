import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { type ComplianceStatus, complianceOperations } from '@/db/schema'
import { recordComplianceEvent } from '@/lib/notifications/recordComplianceEvent'

export type MarkComplianceOperationsSubmittedParameters = {
  ids: readonly string[]
  /** the statuses it may leave (a send: pending, or failed after an admin's retry; reopened: cancelled too) */
  from: readonly ComplianceStatus[]
}

/**
 * Compliance operations locked by the caller -> submitted: their setFrozen or setPaused transaction is known to the
 * node (or, reopened, mined). Returns the ids whose status changed.
 */
export async function markComplianceOperationsSubmitted(
  tx: Tx,
  { ids, from }: MarkComplianceOperationsSubmittedParameters,
): Promise<string[]> {
  if (ids.length === 0) return []
  const now = new Date()
  const rows = await tx
    .update(complianceOperations)
    .set({ status: 'submitted', failureReason: null, submittedAt: now, updatedAt: now })
    .where(and(inArray(complianceOperations.id, [...ids]), inArray(complianceOperations.status, [...from])))
    .returning({ id: complianceOperations.id })
  return rows.map((r) => r.id)
}

export type MarkComplianceOperationsAppliedParameters = {
  done: readonly { id: string; txHash: string; blockNumber: bigint }[]
}

/** the statuses an operation is applied from: in flight, or failed or cancelled while its call was mined anyway */
const APPLIED_FROM: readonly ComplianceStatus[] = ['pending', 'submitted', 'failed', 'cancelled']

/**
 * Compliance operations whose call has its confirmations -> applied, with the mined transaction, and each one's
 * compliance.applied notification event (written once: only while it was not applied yet).
 */
export async function markComplianceOperationsApplied(
  tx: Tx,
  { done }: MarkComplianceOperationsAppliedParameters,
): Promise<void> {
  for (const d of done) {
    const now = new Date()
    const rows = await tx
      .update(complianceOperations)
      .set({ status: 'applied', txHash: d.txHash, blockNumber: d.blockNumber, appliedAt: now, updatedAt: now })
      .where(and(eq(complianceOperations.id, d.id), inArray(complianceOperations.status, [...APPLIED_FROM])))
      .returning({ id: complianceOperations.id })
    if (rows.length > 0)
      await recordComplianceEvent(tx, {
        type: 'compliance.applied',
        operationId: d.id,
        status: 'applied',
        from: ['applied'],
      })
  }
}

export type MarkComplianceOperationFailedParameters = {
  id: string
  reason: string
  /** why, for the event: a stable code (the permanent error's code, attempts_exhausted, reverted) */
  code: string
  /** the statuses it may leave: pending (its send job dead), submitted (its mined call reverted) */
  from: readonly ComplianceStatus[]
}

/**
 * A compliance operation that did not apply -> failed, with the reason, and its compliance.failed notification
 * event (its reason the code, never the text), written when it becomes failed (not again for a failed one).
 * Returns whether it changed.
 */
export async function markComplianceOperationFailed(
  tx: Tx,
  { id, reason, code, from }: MarkComplianceOperationFailedParameters,
): Promise<boolean> {
  const [before] = await tx
    .select({ status: complianceOperations.status })
    .from(complianceOperations)
    .where(eq(complianceOperations.id, id))
    .for('update')
  if (!before || !from.includes(before.status)) return false
  const rows = await tx
    .update(complianceOperations)
    .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
    .where(and(eq(complianceOperations.id, id), inArray(complianceOperations.status, [...from])))
    .returning({ id: complianceOperations.id })
  if (rows.length === 0) return false
  if (before.status !== 'failed')
    await recordComplianceEvent(tx, {
      type: 'compliance.failed',
      operationId: id,
      status: 'failed',
      from: ['failed'],
      data: { reason: code },
    })
  return true
}
