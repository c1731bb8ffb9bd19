import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintOrders } from '@/db/schema/mint'
import { NotAwaitingApprovalError, SelfApprovalError } from '@/lib/errors/approvals'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors/resource'

export type LockOrderAwaitingApprovalParameters = {
  /** a lowercase uuid (the caller turned anything else into a 404) */
  orderId: string
  /** the approver or admin deciding */
  user: Pick<SessionUser, 'id'>
}

export type LockOrderAwaitingApprovalReturnType = {
  id: string
  toAddress: string
  amountWei: bigint
  vault: string
  requestedBy: string
}

/**
 * The order an approve or a reject decides on, locked FOR UPDATE in the caller's
 * transaction, so two decisions on one order run one after the other and the second
 * sees the first's outcome. Checked in this order: no such order -> NotFoundError
 * (404); requested by the one deciding -> SelfApprovalError (403, whatever their role:
 * four eyes); not `awaiting_approval` (another decision came first) -> NotAwaitingApprovalError (409).
 */
export async function lockOrderAwaitingApproval(
  tx: Tx,
  p: LockOrderAwaitingApprovalParameters,
): Promise<LockOrderAwaitingApprovalReturnType> {
  const [order] = await tx
    .select({
      id: mintOrders.id,
      status: mintOrders.status,
      toAddress: mintOrders.toAddress,
      amountWei: mintOrders.amountWei,
      vault: mintOrders.vault,
      requestedBy: mintOrders.requestedBy,
    })
    .from(mintOrders)
    .where(eq(mintOrders.id, p.orderId))
    .for('update')
  if (!order) throw new NotFoundError({ what: 'Order' })
  if (order.requestedBy === p.user.id) throw new SelfApprovalError()
  if (order.status !== 'awaiting_approval') throw new NotAwaitingApprovalError({ status: order.status })
  return {
    id: order.id,
    toAddress: order.toAddress,
    amountWei: BigInt(order.amountWei),
    vault: order.vault,
    requestedBy: order.requestedBy,
  }
}
