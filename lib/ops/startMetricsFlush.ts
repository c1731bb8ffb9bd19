import type { DbOrTx } from '@/db/client'
import { flushMetricSeries } from './flushMetricSeries'

export type StartMetricsFlushParameters = {
  role: 'web' | 'worker'
  /** every 10 s by default: a scrape sees a process's own measurements at most this late */
  intervalMs?: number
  onError?: (err: unknown) => void
}

export type StartMetricsFlushReturnType = { stop: () => Promise<void> }

/**
 * Writes this process's counters and histograms to metric_series every `intervalMs` (only
 * when something changed) and once more on stop(), so a graceful stop loses nothing and a
 * SIGKILL at most the last interval.
 */
export function startMetricsFlush(
  db: DbOrTx,
  { role, intervalMs = 10_000, onError = () => {} }: StartMetricsFlushParameters,
): StartMetricsFlushReturnType {
  let since = -1
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = running.then(() =>
      flushMetricSeries(db, { role, since }).then(
        (v) => {
          since = v
        },
        (err: unknown) => onError(err),
      ),
    )
    return running
  }
  const timer = setInterval(() => void tick(), intervalMs)
  timer.unref()
  return {
    stop: async () => {
      clearInterval(timer)
      await tick()
    },
  }
}
