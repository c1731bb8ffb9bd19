import type { Metadata } from 'next'
import Link from 'next/link'
import { MintRequestForm } from '@/components/mint/MintRequestForm'
import { requireRole } from '@/lib/web/auth/getSessionUser'

export const metadata: Metadata = { title: 'New mint' }

/** /mints/new: the mint request form (staff and admins; approvers approve, they do not request: /forbidden). */
export default async function NewMintPage() {
  await requireRole(['staff', 'admin'])
  return (
    <div className="space-y-6">
      <div>
        <Link href="/mints" className="text-sm text-stone-500 hover:text-stone-800">
          ← My mints
        </Link>
        <h1 className="mt-2">Request a mint</h1>
        <p className="mt-1 text-sm text-stone-600">
          Tokens are minted for gold already in the vault: pick the bars from the vault&apos;s bar list, and the amount
          is their total fine weight. The request is accepted at once; signing and sending happen in the background.
        </p>
      </div>
      <MintRequestForm />
    </div>
  )
}
