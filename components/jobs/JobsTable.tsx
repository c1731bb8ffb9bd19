'use client'

import Link from 'next/link'
import type { ReactNode } from 'react'
import { formatRelative, shortHex, shortId } from '@/components/admin/format'
import { ScrollX } from '@/components/ui/ScrollX'
import { JobStateBadge, OrderStatusBadge } from './JobStateBadge'
import type { Job } from './jobsApi'

export type JobsTableProps = {
  jobs: Job[]
  caption: string
  /** selection checkboxes (the dead letters' bulk retry) */
  selection?: { selected: ReadonlySet<string>; onToggle: (id: string) => void; onToggleAll: (ids: string[]) => void }
  /** per-row buttons */
  actions?: (job: Job) => ReactNode
  now?: Date
  emptyText?: string
}

/** The jobs as a table: id (to the timeline), task, state, attempts "n of max", order, recipient, last error, times. */
export function JobsTable({
  jobs,
  caption,
  selection,
  actions,
  now = new Date(),
  emptyText = 'No jobs match.',
}: JobsTableProps) {
  const ids = jobs.map((j) => j.id)
  const allSelected = selection !== undefined && ids.length > 0 && ids.every((id) => selection.selected.has(id))
  return (
    <ScrollX label="Jobs">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
            {selection ? (
              <th scope="col" className="w-8 py-2 pr-2">
                <input
                  type="checkbox"
                  aria-label="Select all shown"
                  checked={allSelected}
                  onChange={() => selection.onToggleAll(ids)}
                  disabled={ids.length === 0}
                />
              </th>
            ) : null}
            <th scope="col" className="py-2 pr-3 font-medium">
              Job
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Task
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Attempts
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Order
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Recipient
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Last error
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Updated
            </th>
            {actions ? (
              <th scope="col" className="py-2 pl-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {jobs.length === 0 ? (
            <tr>
              <td colSpan={10} className="py-8 text-center text-stone-500">
                {emptyText}
              </td>
            </tr>
          ) : null}
          {jobs.map((job) => (
            <tr key={job.id} className="border-b border-stone-100 align-top last:border-0">
              {selection ? (
                <td className="py-2 pr-2">
                  <input
                    type="checkbox"
                    aria-label={`Select job ${job.id}`}
                    checked={selection.selected.has(job.id)}
                    onChange={() => selection.onToggle(job.id)}
                  />
                </td>
              ) : null}
              <th scope="row" className="py-2 pr-3 text-left font-mono font-medium">
                <Link
                  href={`/admin/jobs/${job.id}`}
                  className="text-brand-700 hover:underline"
                  aria-label={`Job ${job.id}`}
                >
                  #{job.id}
                </Link>
              </th>
              <td className="px-2 py-2 font-mono">{job.task}</td>
              <td className="px-2 py-2">
                <JobStateBadge state={job.state} />
              </td>
              <td className="tabular px-2 py-2 whitespace-nowrap">
                {job.attempts} of {job.maxAttempts}
              </td>
              <td className="px-2 py-2 whitespace-nowrap">
                {job.order ? (
                  <span className="flex flex-col items-start gap-0.5">
                    <span className="inline-flex items-center gap-2">
                      <span className="font-mono" title={job.order.orderId}>
                        {shortId(job.order.orderId)}
                      </span>
                      <OrderStatusBadge status={job.order.status} />
                    </span>
                    <span className="tabular text-xs text-stone-500">{job.order.amount} oz</span>
                  </span>
                ) : job.orderId ? (
                  <span className="font-mono" title={job.orderId}>
                    {shortId(job.orderId)}
                  </span>
                ) : (
                  <span className="text-stone-400">—</span>
                )}
              </td>
              <td className="px-2 py-2 font-mono whitespace-nowrap" title={job.order?.to}>
                {job.order ? shortHex(job.order.to) : '—'}
              </td>
              <td className="max-w-[16rem] px-2 py-2">
                {job.lastError ? (
                  <span className="line-clamp-2 font-mono text-xs break-all text-red-800" title={job.lastError}>
                    {job.lastError.split('\n')[0]}
                  </span>
                ) : (
                  <span className="text-stone-400">—</span>
                )}
              </td>
              <td className="px-2 py-2 whitespace-nowrap text-stone-600" title={job.updatedAt.toISOString()}>
                {formatRelative(job.updatedAt, now)}
                {job.state === 'scheduled' || job.state === 'retrying' ? (
                  <span className="block text-xs text-stone-500">runs {formatRelative(job.runAt, now)}</span>
                ) : null}
              </td>
              {actions ? <td className="py-2 pl-2 whitespace-nowrap">{actions(job)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  )
}
