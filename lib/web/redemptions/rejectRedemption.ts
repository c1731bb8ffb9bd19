import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { recordAudit } from '@/lib/admin/recordAudit'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { isUuid } from '@/lib/mint/isUuid'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRedemption } from './apiTypes'
import { getRedemptionOrThrow } from './getRedemptionOrThrow'
import { lockRedemptionAwaitingApproval } from './lockRedemptionAwaitingApproval'

/**
 * An approver says no, in ONE transaction with the redemption locked (lockRedemptionAwaitingApproval: 404, 403
 * self_approval, 409 not_awaiting_approval): `rejected` with the reason, its bars and its deposit free again (a
 * new redemption may match them), a redemption.failed event with status rejected, its timeline and audit rows.
 */
export async function rejectRedemption(
  db: Db,
  p: { redemptionId: string; user: Pick<SessionUser, 'id' | 'email'>; reason: string },
): Promise<ApiRedemption> {
  if (!isUuid(p.redemptionId)) throw new NotFoundError({ what: 'Redemption' })
  const redemptionId = p.redemptionId.toLowerCase()
  await db.transaction(async (tx) => {
    await lockRedemptionAwaitingApproval(tx, { redemptionId, user: p.user })
    await recordRedemptionEvent(tx, {
      type: 'redemption.failed',
      redemptionId,
      status: 'rejected',
      from: ['awaiting_approval'],
      data: { reason: 'rejected' },
    })
    await tx.execute(sql`
      update redemptions set status = 'rejected', rejected_by = ${p.user.id}::uuid, rejected_at = now(),
        rejection_reason = ${p.reason}, updated_at = now()
      where id = ${redemptionId}::uuid`)
    await tx.execute(sql`
      update vault_bars set redemption_id = null, updated_at = now()
      where redemption_id = ${redemptionId}::uuid and status = 'backing'`)
    await recordJobEvent(tx, {
      event: 'rejected',
      task: TASK.redemptionSend,
      orderId: redemptionId,
      actor: p.user.email,
      detail: `rejected by ${p.user.email}: ${p.reason}`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'redemption.reject',
      targetType: 'redemption',
      targetId: redemptionId,
      detail: { reason: p.reason },
    })
  })
  return getRedemptionOrThrow(db, { redemptionId })
}
