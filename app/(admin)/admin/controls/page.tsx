import type { Metadata } from 'next'
import { ControlsAdmin } from '@/components/admin/controls/ControlsAdmin'
import { PageHeading } from '@/components/ui/PageHeading'
import { readApiMintLimits } from '@/lib/controls/readApiMintLimits'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { listAllowedRecipients } from '@/lib/web/controls/listAllowedRecipients'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Controls' }

/**
 * /admin/controls: the mint controls. The recipient allowlist (add with a label, remove) and the limits (per order,
 * rolling 24 h), each change behind a confirmation (POST/DELETE /api/admin/recipients, PUT /api/admin/limits), audited.
 */
export default async function ControlsPage() {
  await requireAdminReader()
  const db = getWebDb().db
  const [{ items }, limits] = await Promise.all([listAllowedRecipients(db), readApiMintLimits(db)])
  return (
    <div className="space-y-6">
      <PageHeading title="Controls">
        Where mints may go and how much they may move: the recipient allowlist and the mint limits. Each change waits
        for a second admin.
      </PageHeading>
      <ControlsAdmin initialRecipients={items} initialLimits={limits} />
    </div>
  )
}
