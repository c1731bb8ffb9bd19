import type { Metadata } from 'next'
import { Suspense } from 'react'
import { JobsBrowser } from '@/components/jobs/JobsBrowser'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'

export const metadata: Metadata = { title: 'Jobs' }

/** /admin/jobs?state=&task=&q=: every job, filtered and paginated. */
export default async function JobsPage() {
  await requireAdminReader()
  return (
    <Suspense fallback={<h1>Jobs</h1>}>
      <JobsBrowser />
    </Suspense>
  )
}
