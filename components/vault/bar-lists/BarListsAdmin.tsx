'use client'

import { AdminAction } from '@/components/admin/AdminAccess'
import { BarListImportForm } from './BarListImportForm'
import { BarListsTable } from './BarListsTable'
import { MissingBarsTable } from './MissingBarsTable'

/** /admin/vault: import a custodian's bar list, the lists imported, and the bars now missing. */
export function BarListsAdmin() {
  return (
    <div className="space-y-6">
      <div>
        <h1>Bar lists</h1>
        <p className="mt-1 text-sm text-stone-600">
          The custodians&apos; bar lists are the only source of bars: a mint may claim only free bars of its
          vault&apos;s latest list.
        </p>
      </div>
      <AdminAction>
        <BarListImportForm />
      </AdminAction>
      <MissingBarsTable />
      <BarListsTable />
    </div>
  )
}
