import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { liveJobsSql } from '@/lib/jobs/liveJobsSql'
import { countFeeCappedOrders } from '@/lib/ops/countFeeCappedOrders'
import { countUnreconciledEvents } from '@/lib/ops/countUnreconciledEvents'
import { type ReadAlarmCountersReturnType, readAlarmCounters } from './readAlarmCounters'

export type ReadQueueMetricsReturnType = {
  /** jobs in the dead letters (attempts used up, not running): should be 0 */
  deadLetters: number
  /** jobs ready to run now and waiting for a worker */
  queued: number
  /** how long the oldest of those has waited since its run_at, in whole seconds; 0 when none */
  oldestQueuedAgeSeconds: number
  /** open orders the fee ceiling holds back (lib/ops/countFeeCappedOrders.ts): should be 0 */
  feeCappedOrders: number
  /** chain events no row of the desk accounts for, not resolved by an admin (decision 063): should be 0 */
  unreconciledEvents: number
} & ReadAlarmCountersReturnType

/**
 * The figures the production alarms watch (deploy/lib/addQueueAlarms.ts). The queue's, from
 * graphile-worker's live jobs with the job states the admin dashboard uses
 * (lib/jobs/liveJobsSql.ts), so the alarm and /admin agree: `dead` is attempts used up and not
 * locked (a job on its last attempt is `running`, not dead); `queued` is ready to run,
 * not locked, never failed (a job waiting for its retry is `retrying`, one with a future
 * run_at is `scheduled`). And the open orders held back by the fee ceiling, and the
 * cumulative counters the rate alarms take DIFF() of (worker/ops/readAlarmCounters.ts).
 */
export async function readQueueMetrics(db: Db): Promise<ReadQueueMetricsReturnType> {
  const rows = await db.execute<{ dead: number; queued: number; oldest: number }>(sql`
    select
      count(*) filter (where l.state = 'dead')::int as dead,
      count(*) filter (where l.state = 'queued')::int as queued,
      coalesce(floor(extract(epoch from now() - min(l.run_at) filter (where l.state = 'queued'))), 0)::int as oldest
    from ${liveJobsSql} l`)
  const row = rows[0]
  const feeCappedOrders = await countFeeCappedOrders(db)
  const unreconciledEvents = await countUnreconciledEvents(db)
  const counters = await readAlarmCounters(db)
  return {
    deadLetters: row?.dead ?? 0,
    queued: row?.queued ?? 0,
    oldestQueuedAgeSeconds: Math.max(0, row?.oldest ?? 0),
    feeCappedOrders,
    unreconciledEvents,
    ...counters,
  }
}
