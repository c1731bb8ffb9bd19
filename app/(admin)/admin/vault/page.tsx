import type { Metadata } from 'next'
import { BarListsAdmin } from '@/components/vault/bar-lists/BarListsAdmin'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'

export const metadata: Metadata = { title: 'Bar lists' }

/**
 * /admin/vault: import a custodian's bar list (JSON or CSV),
 * the lists imported with their counts, and the missing bars.
 */
export default async function VaultBarListsPage() {
  await requireAdminReader()
  return <BarListsAdmin />
}
