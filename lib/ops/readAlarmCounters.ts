import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ReadAlarmCountersReturnType = {
  /** job attempts finished (succeeded + failed), all tasks: mintdesk_job_attempts_total summed */
  jobAttemptsTotal: number
  /** failed job attempts, all tasks */
  jobFailuresTotal: number
  /** KMS ThrottlingException answers absorbed by retries: mintdesk_faults_total{fault="kms_throttled"} */
  kmsThrottlesTotal: number
  /** mined mints whose block left the chain: mintdesk_reorgs_total */
  reorgsTotal: number
}

/**
 * The few counters of GET /api/metrics that the CloudWatch alarms watch too (decision
 * 020), cumulative and the same in every worker's report (counted from job_events), so
 * the alarms take DIFF() over a period: the same signals as the Grafana alerts.
 */
export async function readAlarmCounters(db: DbOrTx): Promise<ReadAlarmCountersReturnType> {
  const rows = await db.execute<{ attempts: string; failures: string; throttles: string; reorgs: string }>(sql`
    select
      count(*) filter (where event in ('succeeded', 'failed') and task <> 'faults')::text as attempts,
      count(*) filter (where event = 'failed' and task <> 'faults')::text as failures,
      coalesce(sum((data->>'count')::bigint) filter (where event = 'kms_throttled' and task = 'faults'), 0)::text as throttles,
      count(*) filter (where event = 'reorged')::text as reorgs
    from job_events where event in ('succeeded', 'failed', 'kms_throttled', 'reorged')`)
  const r = rows[0]
  return {
    jobAttemptsTotal: Number(r?.attempts ?? 0),
    jobFailuresTotal: Number(r?.failures ?? 0),
    kmsThrottlesTotal: Number(r?.throttles ?? 0),
    reorgsTotal: Number(r?.reorgs ?? 0),
  }
}
