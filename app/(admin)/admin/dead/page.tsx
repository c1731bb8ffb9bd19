import type { Metadata } from 'next'
import { Suspense } from 'react'
import { DeadLetters } from '@/components/jobs/DeadLetters'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'

export const metadata: Metadata = { title: 'Dead letters' }

/** /admin/dead: failed jobs with their last error; retry one, selected or all of a task; cancel. */
export default async function DeadLettersPage() {
  await requireAdminReader()
  return (
    <Suspense fallback={<h1>Dead letters</h1>}>
      <DeadLetters />
    </Suspense>
  )
}
