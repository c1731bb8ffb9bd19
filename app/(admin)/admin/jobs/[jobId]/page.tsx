import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { JobDetail } from '@/components/jobs/JobDetail'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'

type Props = { params: Promise<{ jobId: string }> }

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { jobId } = await params
  return { title: `Job #${jobId}` }
}

/** /admin/jobs/{id}: the job's timeline, errors, order, vault proof and transactions. */
export default async function JobPage({ params }: Props) {
  await requireAdminReader()
  const { jobId } = await params
  if (!/^\d{1,18}$/.test(jobId)) notFound()
  // the trace viewer's link of the job's trace (TRACE_URL)
  return <JobDetail jobId={jobId} traceUrl={getConfig('web').traceUrl ?? null} />
}
