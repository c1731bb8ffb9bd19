import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { MintOrderDetail } from '@/components/mint/MintOrderDetail'
import { requireUser } from '@/lib/web/auth/getSessionUser'
import { isBaseError } from '@/lib/web/errors'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Mint order' }

/** /mints/{orderId}: one order (its owner, or an admin); anything else is a 404. */
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
      <MintOrderDetail initialOrder={order} />
    </div>
  )
}
