import type { Db } from '@/db/client'
import { emitQueueMetrics, type QueueMetricsLog } from './emitQueueMetrics'

export type StartQueueMetricsParameters = {
  /** once a minute by default: the alarms evaluate one-minute periods */
  intervalMs?: number
  log?: QueueMetricsLog
  /** a failed read is reported here and the loop goes on (pino: (err) => logger.warn({ err }, ...)) */
  onError?: (err: unknown) => void
}

export type StartQueueMetricsReturnType = { stop: () => Promise<void> }

/**
 * Emits the `queue_metrics` line now and then every `intervalMs`, for the worker's
 * main loop. stop() waits for a read in progress, so the pool can be closed after it.
 */
export function startQueueMetrics(
  db: Db,
  { intervalMs = 60_000, log, onError = writeWarning }: StartQueueMetricsParameters = {},
): StartQueueMetricsReturnType {
  let running: Promise<void> = Promise.resolve()
  let stopped = false
  const tick = () => {
    running = emitQueueMetrics(db, { log }).then(
      () => undefined,
      (err: unknown) => onError(err),
    )
  }
  tick()
  const timer = setInterval(() => {
    if (!stopped) tick()
  }, intervalMs)
  timer.unref()
  return {
    stop: async () => {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}

function writeWarning(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err)
  process.stderr.write(
    `${JSON.stringify({ level: 'warn', time: new Date().toISOString(), msg: 'queue_metrics read failed', err: message })}\n`,
  )
}
