import Link from 'next/link'
import { formatDuration } from '@/components/admin/format'
import { formatUtc } from '@/components/ui/formatUtc'
import type { TimelineEvent } from '../jobsApi'
import { describeEvent, type EventTone } from './describeEvent'

const dots: Record<EventTone, string> = {
  neutral: 'bg-stone-300',
  info: 'bg-sky-500',
  success: 'bg-emerald-500',
  warning: 'bg-amber-500',
  danger: 'bg-red-600',
  admin: 'bg-brand-600',
}

/**
 * The vertical timeline of a job (and of the other jobs of its order): each step with
 * its time, attempt, actor and detail (a dead letter says whether a permanent error or its last attempt ended
 * it); errors show their message, the stack folded in
 * a <details> so the page stays readable.
 */
export function JobTimeline({
  events,
  jobId,
  maxAttempts,
}: {
  events: TimelineEvent[]
  jobId: string
  /** this job's own maximum of attempts (the other jobs' events are told without it) */
  maxAttempts: number
}) {
  if (events.length === 0) return <p className="text-sm text-stone-500">No events recorded.</p>
  return (
    <ol aria-label="Timeline" className="relative ml-2 border-l border-stone-200">
      {events.map((e) => {
        const otherJob = e.jobId !== null && e.jobId !== jobId
        const d = describeEvent({ ...e, maxAttempts: otherJob ? null : maxAttempts })
        return (
          <li key={e.id} className="relative pb-5 pl-6 last:pb-0">
            <span
              aria-hidden="true"
              className={`absolute top-1.5 -left-[5px] h-2.5 w-2.5 rounded-full ring-4 ring-white ${dots[d.tone]}`}
            />
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h3 className={`text-sm font-semibold ${d.tone === 'danger' ? 'text-red-800' : 'text-stone-900'}`}>
                {d.title}
              </h3>
              <time dateTime={e.at.toISOString()} className="tabular text-xs text-stone-500">
                {formatUtc(e.at)}
              </time>
              {otherJob ? (
                <Link
                  href={`/admin/jobs/${e.jobId}`}
                  className="rounded bg-stone-100 px-1.5 font-mono text-xs text-stone-700 hover:underline"
                >
                  {e.task} #{e.jobId}
                </Link>
              ) : (
                <span className="font-mono text-xs text-stone-500">{e.task}</span>
              )}
              {e.durationMs !== null ? (
                <span className="text-xs text-stone-500">took {formatDuration(e.durationMs)}</span>
              ) : null}
              {e.actor && e.event !== 'retried' && e.event !== 'cancelled' ? (
                <span className="text-xs text-stone-500">by {e.actor}</span>
              ) : null}
            </div>
            {e.detail ? <p className="mt-1 text-sm break-words text-stone-700">{e.detail}</p> : null}
            {e.error ? (
              <div className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2">
                <p className="font-mono text-xs break-words text-red-900">{e.error.message}</p>
                {e.error.stack ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-red-800">Stack trace</summary>
                    <pre className="mt-1 whitespace-pre-wrap break-all text-xs text-red-900">{e.error.stack}</pre>
                  </details>
                ) : null}
              </div>
            ) : null}
            {e.data !== null && e.data !== undefined ? (
              <details className="mt-1">
                <summary className="cursor-pointer text-xs text-stone-500">Data</summary>
                <pre className="mt-1 whitespace-pre-wrap break-all rounded bg-stone-50 p-2 text-xs">
                  {JSON.stringify(e.data, null, 2)}
                </pre>
              </details>
            ) : null}
          </li>
        )
      })}
    </ol>
  )
}
