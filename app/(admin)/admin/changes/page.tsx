import type { Metadata } from 'next'
import { ChangesAdmin } from '@/components/admin/changes/ChangesAdmin'
import { OnChainChangeForm } from '@/components/admin/changes/OnChainChangeForm'
import { PageHeading } from '@/components/ui/PageHeading'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { listControlChanges } from '@/lib/web/changes/listControlChanges'
import { getConfig } from '@/lib/web/config/getConfig'
import { availableSigners } from '@/lib/web/signing/availableSigners'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Changes' }

/**
 * /admin/changes: the control changes awaiting a second admin, each with who asked, what it changes and when, to
 * confirm or reject (POST /api/admin/changes/{id}/confirm, .../reject); the form that proposes a change to
 * GoldMinter's rules, signed with the admin's key (POST /api/admin/changes); then the latest decided ones.
 */
export default async function ChangesPage() {
  const admin = await requireAdminReader()
  const db = getWebDb().db
  const [awaiting, latest] = await Promise.all([
    listControlChanges(db, { status: 'awaiting_second_admin', limit: 100 }),
    listControlChanges(db, { limit: 40 }),
  ])
  const decided = latest.items.filter((c) => c.status !== 'awaiting_second_admin').slice(0, 20)
  const signers = availableSigners({ production: getConfig('web').production })
  return (
    <div className="space-y-6">
      <PageHeading title="Changes">
        A change to the desk&apos;s controls applies only once a second admin confirms it. The ones that live on chain
        carry both admins&apos; signatures and are sent by the worker.
      </PageHeading>
      <ChangesAdmin awaiting={awaiting.items} decided={decided} currentEmail={admin.email} signers={signers} />
      <OnChainChangeForm signers={signers} />
    </div>
  )
}
