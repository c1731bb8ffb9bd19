import type { DbOrTx } from '@/db/client'
import { flushFaultCounts } from './flushFaultCounts'

export type StartFaultCountFlushParameters = {
  /** the worker id the rows are written by */
  actor: string
  intervalMs?: number
  /** a failed write (the database away) is reported here; the counts wait for the next one */
  onError: (err: unknown) => void
}

/**
 * Flushes this process's fault counts (lib/ops/faultCounts.ts) every few seconds, and a
 * last time on stop(), so KMS throttles and RPC retries reach the admin metrics.
 */
export function startFaultCountFlush(
  db: DbOrTx,
  { actor, intervalMs = 5_000, onError }: StartFaultCountFlushParameters,
): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = running.then(() => flushFaultCounts(db, { actor }).then(() => undefined, onError))
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return {
    stop: async () => {
      clearInterval(timer)
      tick()
      await running
    },
  }
}
