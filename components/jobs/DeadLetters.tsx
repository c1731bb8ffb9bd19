'use client'

import { useQuery } from '@tanstack/react-query'
import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { useId, useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { fetchMetrics, metricsQueryKey } from '@/components/admin/adminApi'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { RefreshControl } from '@/components/admin/RefreshControl'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent } from '@/components/ui/Card'
import { useHydrated } from '@/components/ui/useHydrated'
import type { ApiRetryResult } from '@/lib/web/admin/apiTypes'
import { JobActions } from './JobActions'
import { JobsTable } from './JobsTable'
import { Pager } from './Pager'
import { SqsDeadLetters } from './SqsDeadLetters'
import { useJobActions } from './useJobActions'
import { usePagedJobs } from './usePagedJobs'

const REFRESH_MS = 5_000

/**
 * /admin/dead: the jobs stopped for good (attempts used up, or a permanent error), with their last error. Retry one,
 * the selected ones, or all of a task; cancel one. Each behind a confirmation.
 */
export function DeadLetters() {
  const router = useRouter()
  const pathname = usePathname()
  const params = useSearchParams()
  const task = params.get('task') || undefined
  const selectId = useId()
  const [paused, setPaused] = useState(false)
  const { query, page, newer, older } = usePagedJobs(
    { state: 'dead', task },
    { limit: 100, refreshMs: REFRESH_MS, paused },
  )
  const metricsQuery = useQuery({
    queryKey: metricsQueryKey,
    queryFn: fetchMetrics,
    refetchInterval: paused ? false : REFRESH_MS,
  })
  // the admin menu shares this cache and may have the counts before this part hydrates: shown once hydrated
  const metrics = { data: useHydrated() ? metricsQuery.data : undefined }
  const { retryMany } = useJobActions()
  const canChange = useCanChange()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [confirming, setConfirming] = useState<'selected' | 'all' | null>(null)
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)

  const jobs = query.data?.items ?? []
  // only what is still shown can stay selected (a retried job leaves the list)
  const shownSelected = jobs.filter((j) => selected.has(j.id)).map((j) => j.id)
  const deadTasks = (metrics.data?.tasks ?? []).filter((t) => t.depth.dead > 0 || t.task === task)
  const matching = task
    ? (metrics.data?.tasks.find((t) => t.task === task)?.depth.dead ?? 0)
    : (metrics.data?.deadLetters.count ?? 0)

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const toggleAll = (ids: string[]) =>
    setSelected((s) =>
      ids.every((id) => s.has(id)) ? new Set([...s].filter((id) => !ids.includes(id))) : new Set([...s, ...ids]),
    )

  const report = (r: ApiRetryResult) => {
    const skipped =
      r.skipped.length > 0
        ? ` Skipped ${r.skipped.length}: ${r.skipped.map((s) => `#${s.jobId} (${s.reason.replace('_', ' ')})`).join(', ')}.`
        : ''
    const more = r.truncated ? ' More match: retry all again for the rest.' : ''
    setResult({
      tone: r.retried.length > 0 ? 'success' : 'error',
      text: `Retried ${r.retried.length} ${r.retried.length === 1 ? 'job' : 'jobs'}.${skipped}${more}`,
    })
    setSelected(new Set())
  }
  const run = (body: Parameters<typeof retryMany.mutate>[0]) =>
    retryMany.mutate(body, {
      onSuccess: report,
      onError: (e) => setResult({ tone: 'error', text: e.message }),
      onSettled: () => setConfirming(null),
    })

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-3">
            Dead letters
            {metrics.data ? (
              <span
                className={`rounded-full px-2.5 py-0.5 text-base font-semibold ${metrics.data.deadLetters.count > 0 ? 'bg-red-600 text-white' : 'bg-emerald-100 text-emerald-800'}`}
              >
                {metrics.data.deadLetters.count}
              </span>
            ) : null}
          </h1>
          <p className="mt-1 text-sm text-stone-600">
            Jobs that failed their last attempt. Each needs a person: fix the cause, then retry, or cancel.
          </p>
        </div>
        <RefreshControl
          paused={paused}
          onPausedChange={setPaused}
          intervalMs={REFRESH_MS}
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-stone-700">
            Task
          </label>
          <select
            id={selectId}
            value={task ?? ''}
            onChange={(e) => {
              setSelected(new Set())
              router.replace(e.target.value ? `${pathname}?task=${encodeURIComponent(e.target.value)}` : pathname)
            }}
            className="h-10 rounded-md border border-stone-300 bg-white px-3 text-sm"
          >
            <option value="">All tasks</option>
            {deadTasks.map((t) => (
              <option key={t.task} value={t.task}>
                {t.task} ({t.depth.dead})
              </option>
            ))}
          </select>
        </div>
        {canChange ? (
          <>
            <Button
              onClick={() => setConfirming('selected')}
              disabled={shownSelected.length === 0 || retryMany.isPending}
            >
              Retry selected ({shownSelected.length})
            </Button>
            <Button
              variant="secondary"
              onClick={() => setConfirming('all')}
              disabled={jobs.length === 0 || retryMany.isPending}
            >
              Retry all {task ? `${task} ` : ''}dead letters{matching ? ` (${matching})` : ''}
            </Button>
          </>
        ) : null}
      </div>

      {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
      {query.error ? (
        <Alert tone="error" title="The dead letters could not be loaded">
          {query.error.message}
        </Alert>
      ) : null}

      <Card>
        <CardContent>
          {query.data ? (
            jobs.length === 0 && page === 1 ? (
              <Alert tone="success" title="No dead letters">
                {task ? `No ${task} job is dead.` : 'Every job that failed still has attempts left, or was handled.'}
              </Alert>
            ) : (
              <JobsTable
                jobs={jobs}
                caption="Dead letters"
                selection={canChange ? { selected, onToggle: toggle, onToggleAll: toggleAll } : undefined}
                actions={(job) => <JobActions job={job} compact />}
              />
            )
          ) : (
            <p role="status" className="py-6 text-center text-sm text-stone-500">
              Loading dead letters…
            </p>
          )}
        </CardContent>
      </Card>
      <Pager page={page} newer={newer} older={older} />
      <SqsDeadLetters refreshMs={REFRESH_MS} paused={paused} />

      <ConfirmDialog
        open={confirming === 'selected'}
        title={`Retry ${shownSelected.length} selected ${shownSelected.length === 1 ? 'job' : 'jobs'}?`}
        confirmLabel={`Retry ${shownSelected.length} ${shownSelected.length === 1 ? 'job' : 'jobs'}`}
        dismissLabel="Not now"
        tone="primary"
        busy={retryMany.isPending}
        onDismiss={() => setConfirming(null)}
        onConfirm={() => run({ jobIds: shownSelected })}
      >
        <p>
          Each runs again now with its attempts reset; failed orders go back to pending or submitted. Fix the cause
          first.
        </p>
        <p className="font-mono text-xs">{shownSelected.map((id) => `#${id}`).join(' ')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'all'}
        title={`Retry all ${task ? `${task} ` : ''}dead letters?`}
        confirmLabel={`Retry all${matching ? ` ${matching}` : ''}`}
        dismissLabel="Not now"
        tone="primary"
        busy={retryMany.isPending}
        onDismiss={() => setConfirming(null)}
        onConfirm={() => run({ state: 'dead', task })}
      >
        <p>
          Every dead job{task ? ` of task ${task}` : ''} runs again now with its attempts reset ({matching} at the last
          count, up to 500 per request). Fix the cause first, or they will fail the same way.
        </p>
      </ConfirmDialog>
    </div>
  )
}
