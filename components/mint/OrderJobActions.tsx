'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { AdminAccessProvider } from '@/components/admin/AdminAccess'
import { JobActions } from '@/components/jobs/JobActions'
import { JobStateBadge } from '@/components/jobs/JobStateBadge'
import { canCancel, canRetry } from '@/components/jobs/jobActionRules'
import { fetchJobs } from '@/components/jobs/jobsApi'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import type { MintStatus } from '@/lib/web/mint/apiTypes'

/** the order's jobs an admin may act on, looked up again whenever the order's status changes */
export function orderJobsQueryKey(orderId: string, status: MintStatus) {
  return ['admin', 'order-jobs', orderId, status] as const
}

/**
 * An admin's retry and cancel on the order page: the order's jobs (GET /api/admin/jobs?q={orderId}) that its state
 * lets an admin act on (a dead or retrying job retried, a waiting or dead one cancelled, which cancels the order),
 * each with the jobs pages' own JobActions and a link to its job page. Nothing when no job allows either (a confirmed
 * order, one still running).
 */
export function OrderJobActions({ orderId, status }: { orderId: string; status: MintStatus }) {
  const jobs = useQuery({
    queryKey: orderJobsQueryKey(orderId, status),
    queryFn: () => fetchJobs({ q: orderId }),
  })
  if (jobs.error) {
    return <Alert tone="warning">{`The order's jobs could not be loaded: ${jobs.error.message}`}</Alert>
  }
  const actionable = (jobs.data?.items ?? []).filter((j) => canRetry(j.state) || canCancel(j.state))
  if (actionable.length === 0) return null
  return (
    <Card aria-labelledby="order-jobs-heading">
      <CardHeader>
        <CardTitle id="order-jobs-heading">Jobs you can act on</CardTitle>
        <CardDescription>
          Retry runs a job again now with its attempts reset; cancel stops it for good and cancels this order.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <AdminAccessProvider canChange>
          <ul className="space-y-3">
            {actionable.map((job) => (
              <li key={job.id} className="flex flex-wrap items-center justify-between gap-3">
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  <Link href={`/admin/jobs/${job.id}`} className="font-medium hover:underline">
                    Job #{job.id}
                  </Link>
                  <code className="font-mono text-xs text-stone-600">{job.task}</code>
                  <JobStateBadge state={job.state} />
                  <span className="text-xs text-stone-500">
                    attempts {job.attempts} of {job.maxAttempts}
                  </span>
                </span>
                <JobActions job={job} />
              </li>
            ))}
          </ul>
        </AdminAccessProvider>
      </CardContent>
    </Card>
  )
}
