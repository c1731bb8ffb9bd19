import type { Db } from '@/db/client'
import { listHistoryTotals } from '@/lib/ops/listHistoryTotals'
import { METRIC } from '@/lib/ops/metricFamilies'

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
 * 020), from the same totals (lib/ops/listHistoryTotals.ts: folded + the recent tail, so
 * this stays cheap and keeps the fold going while nobody scrapes), cumulative and the same
 * in every worker's report: the alarms take DIFF() over a period, the Grafana alerts
 * increase().
 */
export async function readAlarmCounters(db: Db): Promise<ReadAlarmCountersReturnType> {
  // counters only: the histograms' tail is the costly part of the read, every minute in every worker
  const samples = await listHistoryTotals(db, { histograms: false })
  const total = (name: string, match: (labels: string) => boolean = () => true) =>
    samples.filter((s) => s.name === name && match(s.labels)).reduce((a, s) => a + s.value, 0)
  return {
    jobAttemptsTotal: total(METRIC.jobAttemptsTotal.name),
    jobFailuresTotal: total(METRIC.jobAttemptsTotal.name, (l) => l.includes('outcome="failed"')),
    kmsThrottlesTotal: total(METRIC.faultsTotal.name, (l) => l.includes('fault="kms_throttled"')),
    reorgsTotal: total(METRIC.reorgsTotal.name),
  }
}
