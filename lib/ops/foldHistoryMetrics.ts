import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { metricSeries } from '@/db/schema'
import { countHistoryWindow } from './countHistoryWindow'

/** metric_series rows of process HISTORY_PROCESS: the history's counted facts up to the cut */
export const HISTORY_PROCESS = 'history'
/** the row (process HISTORY_PROCESS) whose value is the cut, in epoch seconds */
export const HISTORY_CUT = 'mintdesk_history_cut_seconds'
/** one fold at a time, across web replicas and workers */
const FOLD_LOCK = 0x6d696e7417

export type FoldHistoryMetricsParameters = {
  /**
   * how far behind now the cut stays: a fact is folded only once every transaction that
   * could still commit one at that time has (10 minutes: the app's transactions take
   * seconds). A fact whose transaction stayed open longer is missed by the totals, never
   * counted twice; the history itself keeps it.
   */
  lagMs?: number
  /** fold at most this often */
  minStepMs?: number
}

/**
 * Moves the cut of the history's counters forward: counts the facts
 * recorded between the last cut and now - lagMs (lib/ops/countHistoryWindow.ts) and adds
 * them to the HISTORY_PROCESS rows of metric_series, in one transaction under an advisory
 * lock (a second folder skips). A scrape then counts only the facts after the cut: its
 * cost follows the last minutes' activity, not the size of the history. The first fold
 * counts the whole history once. Returns whether it folded.
 */
export async function foldHistoryMetrics(
  db: Db,
  { lagMs = 10 * 60_000, minStepMs = 60_000 }: FoldHistoryMetricsParameters = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as ok`)
    if (!lock?.ok) return false
    const [state] = await tx.execute<{ cut: number | null; next: string }>(sql`
      select (select value from metric_series where process = ${HISTORY_PROCESS} and name = ${HISTORY_CUT} and labels = '') as cut,
        (now() - ${lagMs} * interval '1 millisecond')::text as next`)
    const from = state?.cut == null ? null : new Date(state.cut * 1000)
    const to = new Date(state?.next ?? Date.now())
    if (from && to.getTime() - from.getTime() < minStepMs) return false
    const samples = await countHistoryWindow(tx, { from, to })
    const rows = [...samples.map((s) => ({ process: HISTORY_PROCESS, name: s.name, labels: s.labels, value: s.value }))]
    if (rows.length > 0) {
      await tx
        .insert(metricSeries)
        .values(rows)
        .onConflictDoUpdate({
          target: [metricSeries.process, metricSeries.name, metricSeries.labels],
          set: { value: sql`${metricSeries.value} + excluded.value`, updatedAt: sql`now()` },
        })
    }
    await tx
      .insert(metricSeries)
      .values({ process: HISTORY_PROCESS, name: HISTORY_CUT, labels: '', value: to.getTime() / 1000 })
      .onConflictDoUpdate({
        target: [metricSeries.process, metricSeries.name, metricSeries.labels],
        set: { value: to.getTime() / 1000, updatedAt: sql`now()` },
      })
    return true
  })
}
