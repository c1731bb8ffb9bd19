import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiRedemption } from '@/lib/web/redemptions/apiTypes'

/** 'approval_requested' -> 'Approval requested' */
function eventLabel(event: string): string {
  const words = event.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A redemption's events, oldest first: the request, each signature, the burn's sending and confirmations. */
export function RedemptionTimeline({ timeline }: { timeline: ApiRedemption['timeline'] }) {
  if (timeline.length === 0) return <p className="text-sm text-stone-500">No events yet.</p>
  return (
    <ol className="relative space-y-4 border-l border-stone-200 pl-5" aria-label="Timeline">
      {timeline.map((entry, i) => (
        /* biome-ignore lint/suspicious/noArrayIndexKey: two events may share a time; the list only grows at its
           end */
        <li key={`${entry.at}-${i}`} className="relative">
          <span
            aria-hidden="true"
            className="absolute -left-[1.6rem] top-1.5 size-2.5 rounded-full border-2 border-white bg-brand-500"
          />
          <p className="text-sm font-medium text-stone-900">{eventLabel(entry.event)}</p>
          <p className="text-xs text-stone-500">
            <time dateTime={entry.at}>{formatUtc(entry.at)}</time>
          </p>
          {entry.detail ? <p className="mt-0.5 break-words text-sm text-stone-700">{entry.detail}</p> : null}
        </li>
      ))}
    </ol>
  )
}
