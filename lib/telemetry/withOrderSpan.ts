import type { Attributes } from '@opentelemetry/api'
import type { DbOrTx } from '@/db/client'
import { readOrderTraceparent } from './readOrderTraceparent'
import { contextOfTraceparent } from './traceparent'
import { isTracingEnabled } from './tracingState'
import { withSpan } from './withSpan'

/**
 * A step done for one order inside a job that serves many (a batch of sends, a signer's
 * confirmer pass) as a span of THAT order's trace, e.g. `mint.confirmed`: its parent is
 * the order's intake span (lib/telemetry/readOrderTraceparent.ts). Off, or an order without
 * a trace: just `fn()`, in the current span.
 */
export async function withOrderSpan<T>(
  db: DbOrTx,
  p: { orderId: string; name: string; attributes?: Attributes },
  fn: () => Promise<T>,
): Promise<T> {
  if (!isTracingEnabled()) return fn()
  const traceparent = await readOrderTraceparent(db, { orderId: p.orderId }).catch(() => undefined)
  if (!traceparent) return fn()
  return withSpan(
    p.name,
    { parent: contextOfTraceparent(traceparent), attributes: { ...p.attributes, 'mintdesk.order_id': p.orderId } },
    fn,
  )
}
