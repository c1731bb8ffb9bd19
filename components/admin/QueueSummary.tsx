import Link from 'next/link'
import { Badge } from '@/components/ui/Badge'
import { Card } from '@/components/ui/Card'
import type { Metrics } from './adminApi'
import { formatAge } from './format'
import { oldestQueuedHealth } from './health'

/** The headline figures: depth per state across tasks and the oldest queued job's age. */
export function QueueSummary({ metrics }: { metrics: Metrics }) {
  const oldest = metrics.oldestQueued
  const oldestHealth = oldestQueuedHealth(oldest?.ageSeconds ?? null)
  const stats = [
    { label: 'Queued', value: metrics.totals.queued, href: '/admin/jobs?state=queued' },
    { label: 'Running', value: metrics.totals.running, href: '/admin/jobs?state=running' },
    {
      label: 'Retrying',
      value: metrics.totals.retrying,
      href: '/admin/jobs?state=retrying',
      warn: metrics.totals.retrying > 0,
    },
    { label: 'Scheduled', value: metrics.totals.scheduled, href: '/admin/jobs?state=scheduled' },
    { label: 'Dead', value: metrics.totals.dead, href: '/admin/dead', danger: metrics.totals.dead > 0 },
  ]
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
      {stats.map((s) => (
        <Card key={s.label} className={s.danger ? 'border-red-300 bg-red-50' : undefined}>
          <Link href={s.href} className="block px-4 py-3 hover:bg-stone-50/50">
            <p className="text-xs font-medium uppercase tracking-wide text-stone-500">{s.label}</p>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the figure's accessible name, which
                screen readers and the browser tests read */}
            <p
              className={`tabular mt-1 text-2xl font-semibold ${s.danger ? 'text-red-700' : s.warn ? 'text-amber-700' : 'text-stone-900'}`}
              aria-label={`${s.label}: ${s.value}`}
            >
              {s.value}
            </p>
          </Link>
        </Card>
      ))}
      <Card>
        <div className="px-4 py-3">
          <p className="text-xs font-medium uppercase tracking-wide text-stone-500">Oldest queued</p>
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the figure's accessible name, which
              screen readers and the browser tests read */}
          <p
            className="tabular mt-1 text-2xl font-semibold"
            aria-label={`Oldest queued: ${formatAge(oldest?.ageSeconds)}`}
          >
            {formatAge(oldest?.ageSeconds)}
          </p>
          <p className="mt-1 flex items-center gap-2 text-xs text-stone-500">
            <Badge tone={oldestHealth.tone}>{oldestHealth.label}</Badge>
            {oldest ? (
              <Link href={`/admin/jobs/${oldest.jobId}`} className="font-mono underline">
                #{oldest.jobId}
              </Link>
            ) : null}
          </p>
        </div>
      </Card>
    </div>
  )
}
