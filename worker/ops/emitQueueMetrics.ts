import type { Db } from '@/db/client'
import { type ReadQueueMetricsReturnType, readQueueMetrics } from './readQueueMetrics'

/**
 * The structured log line that production turns into CloudWatch metrics. The worker's
 * log group has one metric filter per QUEUE_METRICS entry (deploy/lib/addQueueAlarms.ts
 * imports these names, so the two cannot drift): `{ $.msg = "queue_metrics" }` with the
 * values `$.deadLetters`, `$.oldestQueuedAgeSeconds` and `$.feeCappedOrders`, `$.unreconciledEvents`, in the
 * namespace `Mintdesk`. The alarms are on them.
 */
export const QUEUE_METRICS_MESSAGE = 'queue_metrics'
export const QUEUE_METRICS_NAMESPACE = 'Mintdesk'
export const QUEUE_METRICS = {
  deadLetters: { field: 'deadLetters', metricName: 'DeadLetters', unit: 'Count' },
  oldestQueuedAgeSeconds: { field: 'oldestQueuedAgeSeconds', metricName: 'OldestQueuedJobAgeSeconds', unit: 'Seconds' },
  feeCappedOrders: { field: 'feeCappedOrders', metricName: 'FeeCappedOrders', unit: 'Count' },
  unreconciledEvents: { field: 'unreconciledEvents', metricName: 'UnreconciledEvents', unit: 'Count' },
  // cumulative counters: the alarms take DIFF() per period, as PromQL takes increase()
  jobAttemptsTotal: { field: 'jobAttemptsTotal', metricName: 'JobAttemptsTotal', unit: 'Count' },
  jobFailuresTotal: { field: 'jobFailuresTotal', metricName: 'JobFailuresTotal', unit: 'Count' },
  kmsThrottlesTotal: { field: 'kmsThrottlesTotal', metricName: 'KmsThrottlesTotal', unit: 'Count' },
  reorgsTotal: { field: 'reorgsTotal', metricName: 'ReorgsTotal', unit: 'Count' },
} as const satisfies Record<string, { field: keyof ReadQueueMetricsReturnType; metricName: string; unit: string }>

/** pino's `logger.info(fields, msg)` fits: `emitQueueMetrics(db, { log: (f, m) => logger.info(f, m) })` */
export type QueueMetricsLog = (fields: ReadQueueMetricsReturnType, msg: typeof QUEUE_METRICS_MESSAGE) => void

export type EmitQueueMetricsParameters = {
  /** where the line goes; one JSON line on stdout by default */
  log?: QueueMetricsLog
}

export type EmitQueueMetricsReturnType = ReadQueueMetricsReturnType

/** Reads the queue figures and writes them as one `queue_metrics` log line. */
export async function emitQueueMetrics(
  db: Db,
  { log = writeJsonLine }: EmitQueueMetricsParameters = {},
): Promise<EmitQueueMetricsReturnType> {
  const metrics = await readQueueMetrics(db)
  log(metrics, QUEUE_METRICS_MESSAGE)
  return metrics
}

function writeJsonLine(fields: ReadQueueMetricsReturnType, msg: string): void {
  // the shape of the worker's pino lines (worker/runtime/logger.ts)
  process.stdout.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg, ...fields })}\n`)
}
