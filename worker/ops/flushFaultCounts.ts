import type { DbOrTx } from '@/db/client'
import { jobEvents } from '@/db/schema'
import { restoreFaultCounts, takeFaultCounts } from '@/lib/ops/faultCounts'

/** The job_events task under which fault counts are kept (event = the FaultName, data.count = how many). */
export const FAULTS_TASK = 'faults'

/**
 * Writes this process's fault counts since the last flush as job_events rows (task
 * 'faults', event = kms_throttled / rpc_retry / ..., data { count }), one per name that
 * moved: a durable, cross-process tally without a table of its own. If the database is
 * away (a failover), the counts are kept for the next flush.
 */
export async function flushFaultCounts(db: DbOrTx, { actor }: { actor: string }): Promise<number> {
  const taken = takeFaultCounts()
  const rows = Object.entries(taken).filter(([, n]) => (n ?? 0) > 0)
  if (rows.length === 0) return 0
  try {
    await db.insert(jobEvents).values(
      rows.map(([event, count]) => ({
        task: FAULTS_TASK,
        event,
        actor,
        detail: `${count} since the last flush`,
        data: { count },
      })),
    )
  } catch (error) {
    restoreFaultCounts(taken)
    throw error
  }
  return rows.length
}
