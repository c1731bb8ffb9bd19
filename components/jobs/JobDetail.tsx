'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import type { ReactNode } from 'react'
import { formatRelative, shortHex } from '@/components/admin/format'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { ApiError } from '@/lib/web/errors/api'
import { JobActions } from './JobActions'
import { JobStateBadge, OrderStatusBadge } from './JobStateBadge'
import { JobTimeline } from './job-timeline/JobTimeline'
import { TraceLink } from './job-timeline/TraceLink'
import { fetchJobDetail, type JobDetail as JobDetailData } from './jobsApi'
import { TransactionsTable } from './TransactionsTable'

const LIVE_REFRESH_MS = 2_000

/**
 * /admin/jobs/{id}: why a job is where it is. Header with state, attempts "n of max"
 * and the actions; the timeline with the job's trace (TRACE_URL); the order with its vault proof; the transactions with
 * nonce and fees; the payload. Refreshes every 2 s while the job or its order is in flight.
 */
export function JobDetail({ jobId, traceUrl = null }: { jobId: string; traceUrl?: string | null }) {
  const query = useQuery({
    queryKey: ['admin', 'job', jobId],
    queryFn: () => fetchJobDetail(jobId),
    refetchInterval: (q) => (isSettled(q.state.data) ? false : LIVE_REFRESH_MS),
  })

  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <div className="space-y-4">
        <h1>Job #{jobId}</h1>
        <Alert tone="warning" title="No such job">
          There is no job #{jobId}.{' '}
          <Link href="/admin/jobs" className="underline">
            Back to the jobs
          </Link>
        </Alert>
      </div>
    )
  }
  const d = query.data
  if (!d) {
    return (
      <div className="space-y-4">
        <h1>Job #{jobId}</h1>
        {query.error ? (
          <Alert tone="error" title="The job could not be loaded">
            {query.error.message}
          </Alert>
        ) : (
          <p role="status">Loading…</p>
        )}
      </div>
    )
  }
  const { job } = d
  const lastError = d.errors[d.errors.length - 1]

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-stone-500">
            <Link href="/admin/jobs" className="hover:underline">
              Jobs
            </Link>{' '}
            / <span className="font-mono">{job.task}</span>
          </p>
          <h1 className="mt-1 flex items-center gap-3">
            Job #{job.id} <JobStateBadge state={job.state} />
          </h1>
          <p className="mt-1 text-sm text-stone-600">
            Attempts{' '}
            <span className="tabular font-semibold">
              {job.attempts} of {job.maxAttempts}
            </span>
            {job.state === 'running' && job.lockedBy ? (
              <>
                {' '}
                · running on <span className="font-mono">{job.lockedBy}</span> since {formatRelative(job.lockedAt)}
              </>
            ) : null}
            {(job.state === 'scheduled' || job.state === 'retrying' || job.state === 'queued') && job.runAt ? (
              <> · runs {formatRelative(job.runAt)}</>
            ) : null}
          </p>
        </div>
        <JobActions job={job} size="md" />
      </div>

      {query.error ? (
        <Alert tone="warning">Refresh failed: {query.error.message} Showing the last data received.</Alert>
      ) : null}

      {lastError && (job.state === 'dead' || job.state === 'retrying') ? (
        <Alert tone="error" title={job.state === 'dead' ? 'Dead letter: its last error' : 'Last error (will retry)'}>
          <p className="font-mono break-words">{lastError.message}</p>
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-3" aria-labelledby="timeline-heading">
          <CardHeader>
            <CardTitle id="timeline-heading">Timeline</CardTitle>
            <TraceLink payload={job.payload} traceUrl={traceUrl} />
          </CardHeader>
          <CardContent>
            <JobTimeline events={d.timeline} jobId={job.id} maxAttempts={job.maxAttempts} />
          </CardContent>
        </Card>

        <div className="space-y-6 lg:col-span-2">
          <Card aria-labelledby="job-heading">
            <CardHeader>
              <CardTitle id="job-heading">Job</CardTitle>
            </CardHeader>
            <CardContent>
              <Facts
                rows={[
                  [
                    'Task',
                    <span key="t" className="font-mono">
                      {job.task}
                    </span>,
                  ],
                  ['State', <JobStateBadge key="s" state={job.state} />],
                  ['Attempts', `${job.attempts} of ${job.maxAttempts}`],
                  [
                    'Key',
                    job.key ? (
                      <span key="k" className="font-mono break-all">
                        {job.key}
                      </span>
                    ) : (
                      '—'
                    ),
                  ],
                  ['Created', formatUtc(job.createdAt)],
                  ['Updated', formatUtc(job.updatedAt)],
                  ['Finished', formatUtc(job.finishedAt)],
                ]}
              />
              <details className="mt-3">
                <summary className="cursor-pointer text-sm font-medium">Payload</summary>
                <pre className="mt-2 whitespace-pre-wrap break-all rounded bg-stone-50 p-2 text-xs">
                  {JSON.stringify(job.payload, null, 2)}
                </pre>
              </details>
              {d.relatedJobs.length > 1 ? (
                <div className="mt-4">
                  <h3 className="text-sm font-medium">Jobs of this order</h3>
                  <ul className="mt-1 space-y-1 text-sm">
                    {d.relatedJobs.map((r) => (
                      <li key={r.id} className="flex items-center gap-2">
                        {r.id === job.id ? (
                          <span className="font-mono">#{r.id}</span>
                        ) : (
                          <Link href={`/admin/jobs/${r.id}`} className="font-mono text-brand-700 hover:underline">
                            #{r.id}
                          </Link>
                        )}
                        <span className="font-mono text-stone-600">{r.task}</span>
                        <JobStateBadge state={r.state} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </CardContent>
          </Card>

          {d.order ? <OrderCard order={d.order} nonces={d.nonces} /> : null}
        </div>
      </div>

      {d.order ? (
        <Card aria-labelledby="txs-heading">
          <CardHeader>
            <CardTitle id="txs-heading">Transactions</CardTitle>
          </CardHeader>
          <CardContent>
            <TransactionsTable txs={d.transactions} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  )
}

function isSettled(d: JobDetailData | undefined): boolean {
  if (!d) return false
  const jobDone = d.job.state === 'done' || d.job.state === 'cancelled' || d.job.state === 'dead'
  const orderDone = !d.order || ['confirmed', 'cancelled', 'failed'].includes(d.order.status)
  const othersDone = d.relatedJobs.every((r) => r.state === 'done' || r.state === 'cancelled' || r.state === 'dead')
  return jobDone && orderDone && othersDone
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-stone-500">{k}</dt>
          <dd className="min-w-0">{v}</dd>
        </div>
      ))}
    </dl>
  )
}

function OrderCard({ order, nonces }: { order: NonNullable<JobDetailData['order']>; nonces: JobDetailData['nonces'] }) {
  return (
    <Card aria-labelledby="order-heading">
      <CardHeader>
        <CardTitle id="order-heading" className="flex items-center gap-2">
          Order <OrderStatusBadge status={order.status} />
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {order.failureReason ? (
          <Alert tone="error" title="Failure reason">
            {order.failureReason}
          </Alert>
        ) : null}
        <Facts
          rows={[
            [
              'Order id',
              <span key="o" className="font-mono break-all">
                {order.orderId}
              </span>,
            ],
            [
              'Recipient',
              <span key="r" className="font-mono break-all">
                {order.to}
              </span>,
            ],
            [
              'Amount',
              <span key="a" className="tabular">
                {order.amount} oz
              </span>,
            ],
            ['Requested by', order.requestedBy ?? '—'],
            ['Created', formatUtc(order.createdAt)],
            ['Submitted', formatUtc(order.submittedAt)],
            ['Confirmed', formatUtc(order.confirmedAt)],
            [
              'Signer',
              order.signer ? (
                <span key="s" className="font-mono" title={order.signer}>
                  {shortHex(order.signer, 6)}
                </span>
              ) : (
                '—'
              ),
            ],
            ['Nonce', order.nonce ?? '—'],
            [
              'Mined tx',
              order.txHash ? (
                <span key="h" className="font-mono break-all">
                  {order.txHash}
                </span>
              ) : (
                '—'
              ),
            ],
            ['Block', order.blockNumber ?? '—'],
          ]}
        />
        {nonces.length > 0 ? (
          <p className="text-sm text-stone-600">
            {nonces.map((n) => (
              <span key={`${n.signer}-${n.nonce}`} className="mr-3 inline-flex items-center gap-1">
                nonce <span className="tabular font-mono">{n.nonce}</span>{' '}
                <Badge tone={n.state === 'released' ? 'warning' : n.state === 'mined' ? 'success' : 'info'}>
                  {n.state}
                </Badge>
              </span>
            ))}
          </p>
        ) : null}
        <section aria-labelledby="proof-heading">
          <h3 id="proof-heading" className="text-sm font-semibold">
            Vault proof
          </h3>
          <Facts
            rows={[
              ['Vault', order.vaultProof.vault],
              ['Receipt', order.vaultProof.receiptRef],
              [
                'Document SHA-256',
                <span key="d" className="font-mono text-xs break-all">
                  {order.vaultProof.documentSha256}
                </span>,
              ],
            ]}
          />
          <table className="mt-2 w-full text-xs">
            <caption className="sr-only">Bars backing the order</caption>
            <thead>
              <tr className="border-b border-stone-200 text-left text-stone-500">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Serial
                </th>
                <th scope="col" className="px-1 py-1 font-medium">
                  Refiner
                </th>
                <th scope="col" className="px-1 py-1 font-medium">
                  Year
                </th>
                <th scope="col" className="px-1 py-1 text-right font-medium">
                  Gross oz
                </th>
                <th scope="col" className="px-1 py-1 text-right font-medium">
                  Fineness
                </th>
                <th scope="col" className="py-1 pl-1 text-right font-medium">
                  Fine oz
                </th>
              </tr>
            </thead>
            <tbody>
              {order.vaultProof.bars.map((b) => (
                <tr key={`${b.serial}-${b.refiner}`} className="border-b border-stone-100 last:border-0">
                  <td className="py-1 pr-2 font-mono">{b.serial}</td>
                  <td className="px-1 py-1">{b.refiner}</td>
                  <td className="tabular px-1 py-1">{b.year}</td>
                  <td className="tabular px-1 py-1 text-right">{b.grossOz}</td>
                  <td className="tabular px-1 py-1 text-right">{b.fineness}</td>
                  <td className="tabular py-1 pl-1 text-right">{b.fineOz}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </CardContent>
    </Card>
  )
}
