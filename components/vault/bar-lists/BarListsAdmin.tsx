'use client'

import { AdminAction } from '@/components/admin/AdminAccess'
import { PageHeading } from '@/components/ui/PageHeading'
import { BarListImportForm } from './BarListImportForm'
import { BarListsTable } from './BarListsTable'
import { MissingBarsTable } from './MissingBarsTable'

/** /admin/vault: import a custodian's bar list, the lists imported, and the bars now missing. */
export function BarListsAdmin() {
  return (
    <div className="space-y-6">
      <PageHeading title="Bar lists">
        The custodians&apos; bar lists are the only source of bars: a mint may claim only free bars of its vault&apos;s
        latest list.
      </PageHeading>
      <AdminAction>
        <BarListImportForm />
      </AdminAction>
      <MissingBarsTable />
      <BarListsTable />
    </div>
  )
}
