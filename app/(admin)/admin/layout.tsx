import type { ReactNode } from 'react'
import { AdminAccessProvider } from '@/components/admin/AdminAccess'
import { AdminNav } from '@/components/admin/AdminNav'
import { SigningSwitch } from '@/components/admin/SigningSwitch'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { readSigningState } from '@/lib/web/signingSwitch/readSigningState'
import { getWebDb } from '@/lib/web/webProcess'

/**
 * The admin console's sections, for admins and auditors. The (admin) layout above has
 * checked the role; this checks again (pages render in parallel). An auditor reads every
 * section and is offered no action (AdminAccessProvider). Every page shows the stop switch
 * (SigningSwitch): a banner while signing is stopped.
 */
export default async function AdminConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireAdminReader()
  const canChange = user.role === 'admin'
  const signing = await readSigningState(getWebDb().db)
  return (
    <AdminAccessProvider canChange={canChange}>
      <div>
        <AdminNav />
        <SigningSwitch state={signing} />
        {canChange ? null : (
          <p
            role="status"
            className="mb-4 rounded-md border border-stone-200 bg-stone-50 px-4 py-2 text-sm text-stone-700"
          >
            You are an auditor: you read everything the admins read, and change nothing.
          </p>
        )}
        {children}
      </div>
    </AdminAccessProvider>
  )
}
