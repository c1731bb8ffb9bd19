import type { Metadata } from 'next'
import Link from 'next/link'
import { ComplianceOperations } from '@/components/admin/compliance/ComplianceOperations'
import { ApprovalQueue } from '@/components/approvals/ApprovalQueue'
import { RedemptionsAwaitingApproval } from '@/components/redemptions/RedemptionsAwaitingApproval'
import { PageHeading } from '@/components/ui/PageHeading'
import { listOrdersAwaitingApproval } from '@/lib/web/approvals/listOrdersAwaitingApproval'
import { requireRole } from '@/lib/web/auth/getSessionUser'
import { listComplianceOperations } from '@/lib/web/compliance/listComplianceOperations'
import { getConfig } from '@/lib/web/config/getConfig'
import { listRedemptions } from '@/lib/web/redemptions/listRedemptions'
import { availableSigners } from '@/lib/web/signing/availableSigners'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Approvals' }
export const dynamic = 'force-dynamic'

/**
 * /approvals: the orders waiting for a second person (four eyes), for approvers and
 * admins (anyone else: /forbidden). Each shows what, for whom, backed by which bars and
 * requested by whom, and the intent an approver signs with their own key (their wallet; in
 * dev mode also the dev signer); the viewer's own requests are listed but not theirs to decide. Below them, the
 * redemptions awaiting approvers' signatures (each signed on its own page), and the compliance operations (freeze,
 * unfreeze, pause, unpause) awaiting an approver's signature, decided the same way.
 */
export default async function ApprovalsPage() {
  const user = await requireRole(['approver', 'admin'])
  const [queue, redemptions, compliance] = await Promise.all([
    listOrdersAwaitingApproval(getWebDb().db, { user }),
    listRedemptions(getWebDb().db, { status: 'awaiting_approval', limit: 100 }),
    listComplianceOperations(getWebDb().db, { status: 'awaiting_approval', limit: 100 }),
  ])
  const signers = availableSigners({ production: getConfig('web').production })
  return (
    <div className="space-y-6">
      <PageHeading title="Approvals">
        Mint orders waiting for a second person, oldest first. Check the amount, the recipient and the bars against the
        vault receipt, then sign the intent with your key (your wallet) or reject. Nobody decides on their own request.
        Your key: <Link href="/account/signing-key">your signing key</Link>.
      </PageHeading>
      <ApprovalQueue queue={queue} viewerEmail={user.email} signers={signers} />
      <RedemptionsAwaitingApproval redemptions={redemptions.items} viewerEmail={user.email} />
      <ComplianceOperations
        title="Compliance operations awaiting approval"
        operations={compliance}
        viewerEmail={user.email}
        canDecide
        signers={signers}
        empty="No freeze, unfreeze, pause or unpause awaits a signature."
      />
    </div>
  )
}
