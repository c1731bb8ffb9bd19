import type { Metadata } from 'next'
import { ControlsAdmin } from '@/components/admin/controls/ControlsAdmin'
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
  return <ControlsAdmin initialRecipients={items} initialLimits={limits} />
}
