import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'

/**
 * Of two snapshots of one order, the one to show: `next` unless `previous` has more timeline entries. The timeline
 * only grows (each step adds an event), so a read that started before a step and answered after the live stream
 * brought that step (a refetch on a slow connection) is older and is not shown over it.
 * The order page's query uses it as its structural sharing, for fetched and streamed snapshots alike.
 */
export function newerOrder(previous: unknown, next: unknown): unknown {
  if (isOrder(previous) && isOrder(next) && previous.orderId === next.orderId) {
    if (previous.timeline.length > next.timeline.length) return previous
  }
  return next
}

function isOrder(value: unknown): value is Pick<ApiMintOrder, 'orderId' | 'timeline'> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'timeline' in value &&
    Array.isArray(value.timeline) &&
    'orderId' in value &&
    typeof value.orderId === 'string'
  )
}
