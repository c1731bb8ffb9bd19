import type { Metadata } from 'next'
import { SigningKeyPanel } from '@/components/signing-key/SigningKeyPanel'
import { PageHeading } from '@/components/ui/PageHeading'
import { requireRole } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { availableSigners } from '@/lib/web/signing/availableSigners'

export const metadata: Metadata = { title: 'Signing key' }
export const dynamic = 'force-dynamic'

/**
 * /account/signing-key: the keys bound to the signed-in user, with which they sign
 * approvals (EIP-712), and binding the wallet's key (personal_sign of the server's text);
 * in dev mode also the dev key.
 */
export default async function SigningKeyPage() {
  await requireRole(['staff', 'approver', 'admin'])
  const signers = availableSigners({ production: getConfig('web').production })
  return (
    <div className="space-y-6">
      <PageHeading title="Signing key">
        Approvals are signatures made with a key you hold (a browser wallet, a hardware wallet). Bind your key here by
        signing a text with it; an admin then adds it to the contract's approvers, a change a second admin confirms.
        Only a bound key that is an approver on chain can approve an order.
      </PageHeading>
      <SigningKeyPanel signers={signers} />
    </div>
  )
}
