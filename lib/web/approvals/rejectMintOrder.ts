import { eq, sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { mintOrders } from '@/db/schema/mint'
import { recordAudit } from '@/lib/admin/recordAudit'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { isUuid } from '@/lib/mint/isUuid'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { releaseBars } from '@/lib/vault/releaseBars'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { ValidationError } from '@/lib/web/errors/request'
import { NotFoundError } from '@/lib/web/errors/resource'
import { zodIssues } from '@/lib/web/http/createRouteWrapper'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { lockOrderAwaitingApproval } from './lockOrderAwaitingApproval'
import { rejectMintOrderSchema } from './rejectMintOrderSchema'

export type RejectMintOrderParameters = {
  /** as given in the URL; anything that is not a uuid is not found */
  orderId: string
  /** the approver or admin rejecting (never the requester) */
  user: Pick<SessionUser, 'id' | 'email' | 'role'>
  /** why: 1 to 500 characters after trimming (validated again here, so every caller gets the rule) */
  reason: string
}

export type RejectMintOrderReturnType = ApiMintOrder

/**
 * The second person's no (four eyes, docs/architecture.md invariant 6), in ONE transaction
 * with the order locked FOR UPDATE (lockOrderAwaitingApproval: 404, 403 self_approval,
 * 409 not_awaiting_approval): the order becomes `rejected` with rejected_by/at and the
 * reason, its bars are free again (lib/vault/releaseBars), with a 'rejected' event, an
 * audit row and its `mint.failed` notification event (status `rejected`, reason `rejected`:
 * the requester's email, docs/decisions/053-outcomes-reach-the-requester.md). No job ever
 * existed for it. A reason that is empty or longer than 500 characters is a ValidationError
 * (422). Returns the order as GET /api/gold/mint/{orderId} shows it, read after the commit.
 */
export async function rejectMintOrder(db: Db, p: RejectMintOrderParameters): Promise<RejectMintOrderReturnType> {
  const parsed = rejectMintOrderSchema.safeParse({ reason: p.reason })
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error))
  const { reason } = parsed.data
  if (!isUuid(p.orderId)) throw new NotFoundError({ what: 'Order' })
  const orderId = p.orderId.toLowerCase()

  await db.transaction(async (tx) => {
    await lockOrderAwaitingApproval(tx, { orderId, user: p.user })
    // before the update: the event is written only while the order still awaits approval
    await recordMintEvent(tx, {
      type: 'mint.failed',
      orderId,
      status: 'rejected',
      from: ['awaiting_approval'],
      data: { reason: 'rejected' },
    })
    await tx
      .update(mintOrders)
      .set({
        status: 'rejected',
        rejectedBy: p.user.id,
        rejectedAt: sql`now()`,
        rejectionReason: reason,
        updatedAt: sql`now()`,
      })
      .where(eq(mintOrders.id, orderId))
    const { released } = await releaseBars(tx, { orderId })
    await recordJobEvent(tx, {
      event: 'rejected',
      task: TASK.mintSend,
      orderId,
      actor: p.user.email,
      detail: `rejected by ${p.user.email}: ${reason}`,
      data: { barsReleased: released },
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'mint.reject',
      targetType: 'order',
      targetId: orderId,
      detail: { reason, barsReleased: released },
    })
  })

  return getMintOrderOrThrow(db, { orderId, user: p.user })
}
