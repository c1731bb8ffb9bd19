import type { Metadata } from 'next'
import { ApprovalQueue } from '@/components/approvals/ApprovalQueue'
import { listOrdersAwaitingApproval } from '@/lib/web/approvals/listOrdersAwaitingApproval'
import { requireRole } from '@/lib/web/auth/getSessionUser'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Approvals' }
export const dynamic = 'force-dynamic'

/**
 * /approvals: the orders waiting for a second person (four eyes), for approvers and
 * admins (anyone else: /forbidden). Each shows what, for whom, backed by which bars and
 * requested by whom; the viewer's own requests are listed but not theirs to decide.
 */
export default async function ApprovalsPage() {
  const user = await requireRole(['approver', 'admin'])
  const queue = await listOrdersAwaitingApproval(getWebDb().db, { user })
  return (
    <div className="space-y-6">
      <div>
        <h1>Approvals</h1>
        <p className="mt-1 text-sm text-stone-600">
          Mint orders waiting for a second person, oldest first. Check the amount, the recipient and the bars against
          the vault receipt, then approve or reject. Nobody decides on their own request.
        </p>
      </div>
      <ApprovalQueue queue={queue} />
    </div>
  )
}
