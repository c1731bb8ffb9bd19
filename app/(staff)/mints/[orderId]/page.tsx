import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { MintOrderDetail } from '@/components/mint/MintOrderDetail'
import { requireUser } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { isBaseError } from '@/lib/web/errors'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { availableSigners } from '@/lib/web/signing/availableSigners'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Mint order' }

/**
 * /mints/{orderId}: one order (its owner; approvers, admins and auditors read every order); anything else is a 404.
 * It offers the viewer's actions: an approver or admin approves or rejects an order awaiting approval (the emails'
 * links lead here), an admin retries or cancels its jobs.
 */
export default async function MintOrderPage({ params }: { params: Promise<{ orderId: string }> }) {
  const user = await requireUser()
  const { orderId } = await params
  const order = await getMintOrderOrThrow(getWebDb().db, { orderId, user }).catch((error: unknown) => {
    if (isBaseError(error) && error.code === 'not_found') notFound()
    throw error
  })
  return (
    <div className="space-y-4">
      <Link href="/mints" className="text-sm text-stone-500 hover:text-stone-800">
        ← My mints
      </Link>
      <MintOrderDetail
        initialOrder={order}
        viewer={{
          email: user.email,
          role: user.role,
          signers: availableSigners({ production: getConfig('web').production }),
        }}
      />
    </div>
  )
}
