import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { RedemptionDetail } from '@/components/redemptions/RedemptionDetail'
import { requireUser } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { isBaseError } from '@/lib/web/errors'
import { readsEveryOrder } from '@/lib/web/mint/readsEveryOrder'
import { getRedemptionOrThrow } from '@/lib/web/redemptions/getRedemptionOrThrow'
import { readRedemptionAddress } from '@/lib/web/reserves/readRedemptionAddress'
import { availableSigners } from '@/lib/web/signing/availableSigners'
import { getReservesReader, getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Redemption' }
export const dynamic = 'force-dynamic'

/**
 * /redemptions/{redemptionId}: one redemption (its requester; approvers, admins and auditors read every one);
 * anything else is a 404. An approver or admin who did not request it signs or rejects it here.
 */
export default async function RedemptionPage({ params }: { params: Promise<{ redemptionId: string }> }) {
  const user = await requireUser()
  const { redemptionId } = await params
  const redemption = await getRedemptionOrThrow(getWebDb().db, {
    redemptionId,
    requestedBy: readsEveryOrder(user.role) ? undefined : user.id,
  }).catch((error: unknown) => {
    if (isBaseError(error) && error.code === 'not_found') notFound()
    throw error
  })
  const redemptionAddress = await readRedemptionAddress(getReservesReader())
  return (
    <div className="space-y-4">
      <Link href="/redemptions" className="text-sm text-stone-500 hover:text-stone-800">
        ← Redemptions
      </Link>
      <RedemptionDetail
        initialRedemption={redemption}
        redemptionAddress={redemptionAddress}
        viewer={{
          email: user.email,
          role: user.role,
          signers: availableSigners({ production: getConfig('web').production }),
        }}
      />
    </div>
  )
}
