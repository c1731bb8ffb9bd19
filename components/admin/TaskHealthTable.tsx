import Link from 'next/link'
import { Badge } from '@/components/ui/Badge'
import { ScrollX } from '@/components/ui/ScrollX'
import { LIVE_JOB_STATES } from '@/lib/jobs/jobStates'
import type { Metrics } from './adminApi'
import { formatAge, formatDuration, formatPercent } from './format'
import { failureRateHealth, runTimeHealth } from './health'

/**
 * Per task: depth by state, oldest queued, attempts and failure rate over the window,
 * p50/p95 run time with a bar against the heartbeat takeover limit.
 */
export function TaskHealthTable({ metrics }: { metrics: Metrics }) {
  const limitMs = metrics.limits.staleAfterMs
  return (
    <ScrollX label="Task health">
      <table className="w-full text-sm [&_td]:whitespace-nowrap">
        <caption className="sr-only">Queue depth, failure rate and run time per task</caption>
        <thead>
          <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
            <th scope="col" className="py-2 pr-3 font-medium">
              Task
            </th>
            {LIVE_JOB_STATES.map((s) => (
              <th key={s} scope="col" className="px-2 py-2 text-right font-medium">
                {s}
              </th>
            ))}
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Oldest queued
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Attempts
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Failure rate
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              p50
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              p95
            </th>
            <th scope="col" className="py-2 pl-3 font-medium">
              p95 vs limit ({formatDuration(limitMs)})
            </th>
          </tr>
        </thead>
        <tbody>
          {metrics.tasks.length === 0 ? (
            <tr>
              <td colSpan={12} className="py-6 text-center text-stone-500">
                No tasks have run yet.
              </td>
            </tr>
          ) : null}
          {metrics.tasks.map((t) => {
            const rate = failureRateHealth(t.failureRate)
            const run = runTimeHealth(t.p95Ms, limitMs)
            return (
              <tr key={t.task} className="border-b border-stone-100 last:border-0">
                <th scope="row" className="py-2 pr-3 text-left font-mono font-medium">
                  <Link href={`/admin/jobs?task=${encodeURIComponent(t.task)}`} className="hover:underline">
                    {t.task}
                  </Link>
                </th>
                {LIVE_JOB_STATES.map((s) => (
                  <td
                    key={s}
                    className={`tabular px-2 py-2 text-right ${t.depth[s] > 0 && s === 'dead' ? 'font-semibold text-red-700' : t.depth[s] === 0 ? 'text-stone-400' : ''}`}
                  >
                    {t.depth[s]}
                  </td>
                ))}
                <td className="tabular px-2 py-2 text-right">{formatAge(t.oldestQueuedAgeSeconds)}</td>
                <td
                  className="tabular px-2 py-2 text-right"
                  title={`${t.succeeded} succeeded, ${t.failed} failed, ${t.died} died`}
                >
                  {t.succeeded + t.failed}
                </td>
                <td className="px-2 py-2 text-right">
                  <span className="tabular mr-2">{formatPercent(t.failureRate)}</span>
                  {t.failureRate !== null && t.failureRate > 0 ? <Badge tone={rate.tone}>{rate.label}</Badge> : null}
                </td>
                <td className="tabular px-2 py-2 text-right">{formatDuration(t.p50Ms)}</td>
                <td className="tabular px-2 py-2 text-right">{formatDuration(t.p95Ms)}</td>
                <td className="py-2 pl-3">
                  {run.ratio === null ? (
                    <span className="text-stone-400">—</span>
                  ) : (
                    <div className="flex items-center gap-2">
                      {/* biome-ignore lint/a11y/useSemanticElements: a styled bar; <meter> cannot be
                          styled the same across browsers */}
                      <div
                        className="h-2 w-28 overflow-hidden rounded-full bg-stone-100"
                        role="meter"
                        aria-label={`${t.task} p95 against the limit`}
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={Math.round(Math.min(run.ratio, 1) * 100)}
                      >
                        <div
                          className={`h-full ${run.tone === 'danger' ? 'bg-red-500' : run.tone === 'warning' ? 'bg-amber-500' : 'bg-emerald-500'}`}
                          style={{ width: `${Math.max(2, Math.min(run.ratio, 1) * 100)}%` }}
                        />
                      </div>
                      <span className="tabular text-xs text-stone-500">{formatPercent(run.ratio)}</span>
                    </div>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </ScrollX>
  )
}
