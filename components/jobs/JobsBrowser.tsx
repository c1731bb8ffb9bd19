'use client'

import Link from 'next/link'
import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { useState } from 'react'
import { RefreshControl } from '@/components/admin/RefreshControl'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent } from '@/components/ui/Card'
import { HOUSEKEEPING_TASKS } from '@/lib/jobs/jobKeys'
import { JOB_STATES } from '@/lib/jobs/jobStates'
import { JobsTable } from './JobsTable'
import { JobSearch } from './job-search/JobSearch'
import { type JobSearch as JobSearchValue, jobSearchFromParams, jobSearchToParams } from './job-search/parser'
import { Pager } from './Pager'
import { usePagedJobs } from './usePagedJobs'

const REFRESH_MS = 5_000

/**
 * /admin/jobs: every job, filtered by state (tabs), task and free text; the filters live in the URL. The
 * housekeeping tasks' routine jobs are hidden unless "Show housekeeping" is ticked (their retrying and dead jobs are
 * always listed).
 */
export function JobsBrowser() {
  const router = useRouter()
  const pathname = usePathname()
  const params = useSearchParams()
  const filters = jobSearchFromParams(new URLSearchParams(params.toString()))
  const [paused, setPaused] = useState(false)
  const { query, page, newer, older } = usePagedJobs(filters, { refreshMs: REFRESH_MS, paused })

  const hrefFor = (s: JobSearchValue) => {
    const qs = jobSearchToParams(s).toString()
    return qs ? `${pathname}?${qs}` : pathname
  }
  const go = (s: JobSearchValue) => router.replace(hrefFor(s))

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1>Jobs</h1>
        <RefreshControl
          paused={paused}
          onPausedChange={setPaused}
          intervalMs={REFRESH_MS}
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      <nav aria-label="Job states" className="flex flex-wrap gap-1 text-sm">
        {[undefined, ...JOB_STATES].map((state) => {
          const active = filters.state === state
          return (
            <Link
              key={state ?? 'all'}
              href={hrefFor({ ...filters, state })}
              aria-current={active ? 'page' : undefined}
              className={`rounded-full px-3 py-1 ${active ? 'bg-stone-900 text-white' : 'bg-white text-stone-700 ring-1 ring-stone-200 hover:bg-stone-100'}`}
            >
              {state ?? 'all'}
            </Link>
          )
        })}
      </nav>
      <JobSearch value={filters} onSearch={go} />
      <label className="inline-flex items-center gap-2 text-sm text-stone-700">
        <input
          type="checkbox"
          checked={filters.housekeeping === true}
          onChange={(e) => go({ ...filters, housekeeping: e.target.checked ? true : undefined })}
          className="size-4 rounded border-stone-300"
        />
        <span>
          Show housekeeping (
          {HOUSEKEEPING_TASKS.map((t, i) => (
            <span key={t}>
              {i > 0 ? ', ' : null}
              <code className="font-mono">{t}</code>
            </span>
          ))}
          ): hidden unless retrying or dead
        </span>
      </label>
      {filters.task ? (
        <p className="text-sm text-stone-600">
          Task <code className="font-mono">{filters.task}</code>{' '}
          <Link href={hrefFor({ ...filters, task: undefined })} className="underline">
            (show all tasks)
          </Link>
        </p>
      ) : null}
      {query.error ? (
        <Alert tone="error" title="The jobs could not be loaded">
          {query.error.message}
        </Alert>
      ) : null}
      <Card>
        <CardContent>
          {query.data ? (
            <JobsTable jobs={query.data.items} caption="Jobs, newest first" emptyText="No job matches these filters." />
          ) : (
            <p role="status" className="py-6 text-center text-sm text-stone-500">
              Loading jobs…
            </p>
          )}
        </CardContent>
      </Card>
      <Pager page={page} newer={newer} older={older} />
    </div>
  )
}
