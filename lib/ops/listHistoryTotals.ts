import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { countHistoryWindow, type MetricSample } from './countHistoryWindow'
import { foldHistoryMetrics, HISTORY_CUT, HISTORY_PROCESS } from './foldHistoryMetrics'
import { METRIC } from './metricFamilies'

/**
 * The history's counters and histograms now: the folded totals up to the
 * cut plus the facts after it, read in one repeatable-read snapshot so a fold committing
 * meanwhile is seen either wholly or not at all (never counted twice). Folds first when a
 * fold is due (lib/ops/foldHistoryMetrics.ts; skipped when another process folds).
 * `histograms: false` leaves the histograms out (their folded rows and their tail): a
 * reader of counters only (the alarms' every minute) skips their costly tail.
 */
export async function listHistoryTotals(
  db: Db,
  { histograms = true }: { histograms?: boolean } = {},
): Promise<MetricSample[]> {
  await foldHistoryMetrics(db).catch(() => false)
  return db.transaction(
    async (tx) => {
      const rows = await tx.execute<{ name: string; labels: string; value: number }>(sql`
        select name, labels, value from metric_series where process = ${HISTORY_PROCESS}`)
      const cutRow = rows.find((r) => r.name === HISTORY_CUT)
      const folded = rows.filter((r) => r.name !== HISTORY_CUT && (histograms || !HISTOGRAM_SAMPLES.has(r.name)))
      const tail = await countHistoryWindow(
        tx,
        { from: cutRow ? new Date(cutRow.value * 1000) : null, to: null },
        { histograms },
      )
      const byKey = new Map<string, MetricSample>()
      for (const s of [...folded, ...tail]) {
        const key = `${s.name}${s.labels}`
        const found = byKey.get(key)
        if (found) found.value += s.value
        else byKey.set(key, { name: s.name, labels: s.labels, value: s.value })
      }
      return [...byKey.values()]
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

/** the samples of the histogram families (METRIC, their one home): `<family>_bucket`, `_sum`, `_count` */
const HISTOGRAM_SAMPLES = new Set(
  Object.values(METRIC)
    .filter((f) => f.type === 'histogram')
    .flatMap((f) => [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`]),
)
