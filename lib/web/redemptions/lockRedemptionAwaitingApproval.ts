import { eq } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { redemptions } from '@/db/schema'
import { NotAwaitingApprovalError, SelfApprovalError } from '@/lib/errors/approvals'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors/resource'

/**
 * The redemption an approve or a reject decides on, locked FOR UPDATE in the caller's transaction, so two
 * decisions run one after the other. No such redemption: 404; requested by the one deciding: 403 self_approval
 * (whatever their role); not awaiting approval: 409 not_awaiting_approval.
 */
export async function lockRedemptionAwaitingApproval(
  tx: Tx,
  p: { redemptionId: string; user: Pick<SessionUser, 'id'> },
): Promise<typeof redemptions.$inferSelect> {
  const [row] = await tx.select().from(redemptions).where(eq(redemptions.id, p.redemptionId)).for('update')
  if (!row) throw new NotFoundError({ what: 'Redemption' })
  if (row.requestedBy === p.user.id) throw new SelfApprovalError()
  if (row.status !== 'awaiting_approval') throw new NotAwaitingApprovalError({ status: row.status })
  return row
}
