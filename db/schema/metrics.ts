import { doublePrecision, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The cumulative values of the counters and histogram series that a process measures
 * itself (KMS calls and Sign time in the worker, intake latency in the web: nothing in
 * the history tables records them), one row per process and series, upserted by that
 * process every few seconds (lib/ops/flushMetricSeries.ts). GET /api/metrics sums the
 * rows of all processes, dead ones included, so a series survives restarts and adds up
 * across replicas without a hot row (docs/decisions/020-counters-and-traces.md). Everything the history tables
 * already record (attempts, broadcasts, confirmations, ...) is counted from them instead.
 */
export const metricSeries = pgTable(
  'metric_series',
  {
    /** the process: the worker id, or `web:<host>:<pid>:<start>` */
    process: text('process').notNull(),
    /** a sample name of the exposition format (`mintdesk_kms_requests_total`, `..._bucket`, `..._sum`, `..._count`) */
    name: text('name').notNull(),
    /** the labels as exposition text, sorted by name (`{le="0.5",operation="Sign"}`), '' for none */
    labels: text('labels').notNull(),
    /** cumulative since the process started: never decreases for one row */
    value: doublePrecision('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.process, t.name, t.labels] })],
)
