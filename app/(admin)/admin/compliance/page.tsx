import type { Metadata } from 'next'
import { ComplianceChainState } from '@/components/admin/compliance/ComplianceChainState'
import { ComplianceOperations } from '@/components/admin/compliance/ComplianceOperations'
import { ComplianceRequestForm } from '@/components/admin/compliance/ComplianceRequestForm'
import { PageHeading } from '@/components/ui/PageHeading'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { getComplianceState } from '@/lib/web/compliance/getComplianceState'
import { getConfig } from '@/lib/web/config/getConfig'
import { availableSigners } from '@/lib/web/signing/availableSigners'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Compliance' }
export const dynamic = 'force-dynamic'

/**
 * /admin/compliance: the token's pause state and frozen addresses as the chain says; the form that asks for a
 * freeze, unfreeze, pause or unpause (admins); every operation with its status and timeline, and for an admin who
 * did not ask for it Approve (signed with their key) and Reject. Auditors read it all and are offered no action.
 */
export default async function CompliancePage() {
  const user = await requireAdminReader()
  const state = await getComplianceState(getWebDb().db, { minter: getMinterReader, limit: 100 })
  const signers = availableSigners({ production: getConfig('web').production })
  return (
    <div className="space-y-6">
      <PageHeading title="Compliance">
        Freeze or unfreeze an address, pause or unpause the token: each with a reason, signed by an approver and sent by
        the worker. The frozen addresses and the pause are shown as the chain reports them.
      </PageHeading>
      <ComplianceChainState chain={state.chain} />
      <ComplianceRequestForm />
      <ComplianceOperations
        title="Compliance operations"
        operations={state.operations}
        viewerEmail={user.email}
        canDecide={user.role === 'admin'}
        signers={signers}
        empty="No compliance operation yet."
      />
    </div>
  )
}
