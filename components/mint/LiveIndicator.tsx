import type { OrderStreamState } from './useOrderStream'

/**
 * How fresh the page is: `stream` open, each step shows as it happens (the order page); else refreshing every
 * `pollMs` while something is in flight (`live`), or up to date with nothing in flight.
 */
export function LiveIndicator({
  live,
  fetching,
  pollMs = 2_000,
  stream,
}: {
  live: boolean
  fetching: boolean
  pollMs?: number
  stream?: OrderStreamState
}) {
  const streaming = stream === 'open'
  return (
    <p role="status" className="flex items-center gap-2 text-xs text-stone-500" data-stream={stream}>
      <span
        aria-hidden="true"
        className={
          live || streaming
            ? 'inline-block size-2 animate-pulse rounded-full bg-emerald-500'
            : 'inline-block size-2 rounded-full bg-stone-300'
        }
      />
      {streaming
        ? 'Live: each step shows as it happens'
        : live
          ? `Live: refreshing every ${pollMs / 1000} s while in flight${fetching ? '…' : ''}`
          : 'Up to date: nothing in flight'}
    </p>
  )
}
