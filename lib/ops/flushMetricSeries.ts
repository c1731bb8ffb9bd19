import os from 'node:os'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { metricSeries } from '@/db/schema'
import { snapshotMetricSeries } from '@/lib/telemetry/metricRegistry'

/**
 * this process's key in metric_series: unique per start, so a restarted process adds rows instead of lowering old ones
 */
export const METRIC_PROCESS_ID = `${os.hostname()}:${process.pid}:${Date.now().toString(36)}`

export type FlushMetricSeriesParameters = {
  /** 'web' or 'worker': the first part of the process key */
  role: string
  /** the registry version already written: nothing to do while it is unchanged */
  since?: number
}

/**
 * Upserts every series of this process's registry (lib/telemetry/metricRegistry.ts) into
 * metric_series, one statement. Values are cumulative, so a lost flush only delays them.
 * Returns the version written, for the next call's `since`.
 */
export async function flushMetricSeries(
  db: DbOrTx,
  { role, since = -1 }: FlushMetricSeriesParameters,
): Promise<number> {
  const { version, series } = snapshotMetricSeries()
  if (version === since || series.length === 0) return version
  const processId = `${role}:${METRIC_PROCESS_ID}`
  await db
    .insert(metricSeries)
    .values(series.map((s) => ({ process: processId, name: s.name, labels: s.labels, value: s.value })))
    .onConflictDoUpdate({
      target: [metricSeries.process, metricSeries.name, metricSeries.labels],
      // greatest(): a slower, older flush arriving last never lowers a value
      set: { value: sql`greatest(${metricSeries.value}, excluded.value)`, updatedAt: sql`now()` },
    })
  return version
}
