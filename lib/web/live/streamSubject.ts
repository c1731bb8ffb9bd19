import { stringifyJson } from '@/lib/web/http/json'
import type { SubjectListener } from './createSubjectListener'

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 15_000
/** A stream ends after this long; the browser opens a new one, which checks the session again. */
export const LIVE_MAX_LIFETIME_MS = 5 * 60_000
/** How soon the browser reconnects after a stream ends (the SSE `retry` field). */
export const LIVE_RETRY_MS = 1_000

export type StreamSubjectParameters<T> = {
  listener: SubjectListener
  /** the operation followed (job_events.order_id) */
  id: string
  /** the SSE event name of each snapshot (`order`) */
  event: string
  /** the operation as its viewer may see it now; a throw ends the stream */
  read: () => Promise<T>
  /** the request's signal: the browser went away */
  signal: AbortSignal
  heartbeatMs?: number
  maxLifetimeMs?: number
}

/**
 * A Server-Sent Events response that follows one operation: a snapshot at once, then a new snapshot after each
 * notification of its id (createSubjectListener), read again from the database. Notifications that arrive while a
 * read runs are folded into one more read, so the last snapshot sent is never older than the last notification.
 * Subscribed before the first read: no change between the two is missed.
 */
export function streamSubject<T>(p: StreamSubjectParameters<T>): Response {
  const encoder = new TextEncoder()
  let closed = false
  let close = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text))
      }
      let reading = false
      let again = false
      const push = async () => {
        if (reading) {
          again = true
          return
        }
        reading = true
        try {
          do {
            again = false
            const snapshot = await p.read()
            send(`event: ${p.event}\ndata: ${stringifyJson(snapshot)}\n\n`)
          } while (again && !closed)
        } catch {
          // gone, no longer visible to the viewer, or the database away: the browser reconnects or falls back
          close()
        } finally {
          reading = false
        }
      }
      const unsubscribe = p.listener.subscribe(p.id, () => void push())
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), p.heartbeatMs ?? LIVE_HEARTBEAT_MS)
      const lifetime = setTimeout(() => close(), p.maxLifetimeMs ?? LIVE_MAX_LIFETIME_MS)
      close = () => {
        if (closed) return
        closed = true
        unsubscribe()
        clearInterval(heartbeat)
        clearTimeout(lifetime)
        p.signal.removeEventListener('abort', close)
        try {
          controller.close()
        } catch {
          // already closed by the reader
        }
      }
      p.signal.addEventListener('abort', close)
      if (p.signal.aborted) return close()
      send(`retry: ${LIVE_RETRY_MS}\n\n`)
      void push()
    },
    cancel() {
      close()
    },
  })
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: no compression layer holds the events back to fill a buffer
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}
