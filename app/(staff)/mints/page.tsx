import type { Metadata } from 'next'
import Link from 'next/link'
import { MintOrderList } from '@/components/mint/MintOrderList'
import { requireUser } from '@/lib/web/auth/getSessionUser'
import { listMintOrders } from '@/lib/web/mint/listMintOrders'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'My mints' }

/** /mints: staff see their own orders, approvers, admins and auditors every order; live while any is in flight. */
export default async function MyMintsPage() {
  const user = await requireUser()
  const firstPage = await listMintOrders(getWebDb().db, { user })
  const admin = user.role === 'admin'
  const approver = user.role === 'approver'
  const auditor = user.role === 'auditor'
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1>{admin || approver || auditor ? 'Mints' : 'My mints'}</h1>
          <p className="mt-1 text-sm text-stone-600">
            {admin
              ? 'Every mint order, newest first (you are an admin).'
              : auditor
                ? 'Every mint order, newest first (you are an auditor: you read, you change nothing).'
                : approver
                  ? 'Every mint order, newest first (you are an approver: the ones awaiting you are on Approvals).'
                  : 'The mint orders you requested, newest first.'}
          </p>
        </div>
        {auditor ? null : approver ? (
          <Link
            href="/approvals"
            className="inline-flex h-10 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
          >
            Approvals
          </Link>
        ) : (
          <Link
            href="/mints/new"
            className="inline-flex h-10 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
          >
            New mint
          </Link>
        )}
      </div>
      <MintOrderList initialPage={firstPage} showRequester={admin || approver} />
    </div>
  )
}
