import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { complianceOperations } from '@/db/schema/compliance'
import { isUuid } from '@/lib/mint/isUuid'
import { OperationNotAwaitingError, SelfApproveOperationError } from '@/lib/web/errors/compliance'
import { NotFoundError } from '@/lib/web/errors/resource'

export type LockOperationAwaitingApprovalParameters = {
  operationId: string
  /** the person about to sign or reject it */
  user: { id: string }
}

/**
 * A compliance operation locked FOR UPDATE for a signature or a rejection, so of two people deciding at once one
 * decides and the other then finds it decided. Unknown id: 404; its requester: 403 self_approval; not awaiting
 * approval: 409 not_awaiting_approval.
 */
export async function lockOperationAwaitingApproval(tx: Tx, p: LockOperationAwaitingApprovalParameters) {
  if (!isUuid(p.operationId)) throw new NotFoundError({ what: 'Operation' })
  const [row] = await tx
    .select()
    .from(complianceOperations)
    .where(eq(complianceOperations.id, p.operationId.toLowerCase()))
    .for('update')
  if (!row) throw new NotFoundError({ what: 'Operation' })
  if (row.requestedBy === p.user.id) throw new SelfApproveOperationError()
  if (row.status !== 'awaiting_approval') throw new OperationNotAwaitingError({ status: row.status })
  return row
}
