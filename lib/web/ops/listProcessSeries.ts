import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { MetricSample } from '@/lib/ops/countHistoryWindow'
import { HISTORY_PROCESS } from '@/lib/ops/foldHistoryMetrics'

/**
 * The counters and histograms measured in process (KMS calls and Sign time, intake
 * latency), summed over the metric_series rows of every process that ever ran: a restart
 * adds a process's rows instead of resetting a series, and every web replica answers the
 * same sums. A histogram's buckets add up bucket by bucket (all
 * processes share the bounds of lib/ops/metricFamilies.ts).
 */
export async function listProcessSeries(db: DbOrTx): Promise<MetricSample[]> {
  const rows = await db.execute<{ name: string; labels: string; value: number }>(sql`
    select name, labels, sum(value)::float8 as value from metric_series where process <> ${HISTORY_PROCESS} group by name, labels`)
  return [...rows]
}

/** `{a="x",le="0.5"}` (as lib/telemetry/metricRegistry.ts writes it) back to an object */
export function parseLabelText(text: string): Record<string, string> {
  const labels: Record<string, string> = {}
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g
  for (const m of text.matchAll(re)) {
    labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
  }
  return labels
}
