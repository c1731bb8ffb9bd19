import type { Buckets } from '@/lib/telemetry/metricRegistry'

/**
 * The counter and histogram families of GET /api/metrics (docs/decisions/020-counters-and-traces.md): one
 * home for their names, help, type and buckets, read by the exposition, the Grafana
 * dashboard's test and the process-side recorders (the KMS middleware, the intake
 * wrapper). Counters are monotonic across restarts and replicas: the history tables
 * (job_events, mint_orders, webhook_delivery_attempts) or the sum over every process's
 * metric_series rows.
 */
export type MetricFamilyInfo = { name: string; help: string; type: 'counter' | 'histogram'; buckets?: Buckets }

const SECONDS_FAST: Buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const SECONDS_QUEUE: Buckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
const SECONDS_CHAIN: Buckets = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600]

export const METRIC = {
  ordersTotal: {
    name: 'mintdesk_orders_total',
    type: 'counter',
    help: 'Mint orders by outcome: requested (created), confirmed (orders that reached it, once each), failed (a send that died), rejected, cancelled.',
  },
  jobAttemptsTotal: {
    name: 'mintdesk_job_attempts_total',
    type: 'counter',
    help: 'Job attempts finished, per task and outcome (succeeded, failed).',
  },
  deadLettersTotal: {
    name: 'mintdesk_dead_letters_total',
    type: 'counter',
    help: 'Jobs that became dead letters, per task (the gauge mintdesk_dead_letters is how many wait now).',
  },
  transactionsSentTotal: {
    name: 'mintdesk_transactions_sent_total',
    type: 'counter',
    help: 'Signed transactions handed to the node, per kind: mint (first broadcast), replacement (fee bump), rebroadcast (stored bytes again), gap_fill.',
  },
  feeBumpsTotal: {
    name: 'mintdesk_fee_bumps_total',
    type: 'counter',
    help: 'Stuck transactions replaced with higher fees.',
  },
  feeCappedTotal: {
    name: 'mintdesk_fee_capped_total',
    type: 'counter',
    help: 'Times a mint was held back because the chain asked for more than the fee ceiling.',
  },
  reorgsTotal: {
    name: 'mintdesk_reorgs_total',
    type: 'counter',
    help: 'Mined mints whose block left the canonical chain (the mint is sent again).',
  },
  approvalsTotal: {
    name: 'mintdesk_approvals_total',
    type: 'counter',
    help: 'Four-eyes decisions on orders, per decision (approved, rejected).',
  },
  kmsRequestsTotal: {
    name: 'mintdesk_kms_requests_total',
    type: 'counter',
    help: 'KMS requests per operation and outcome (ok, throttled, error), each SDK attempt counted, from every process.',
  },
  faultsTotal: {
    name: 'mintdesk_faults_total',
    type: 'counter',
    help: 'Transient faults absorbed by retries, per fault: kms_throttled, kms_sign_retry, rpc_retry, rpc_rate_limited.',
  },
  webhookAttemptsTotal: {
    name: 'mintdesk_webhook_delivery_attempts_total',
    type: 'counter',
    help: 'Webhook delivery attempts (POSTs), per outcome (ok: a 2xx within the timeout, failed).',
  },
  intakeSeconds: {
    name: 'mintdesk_intake_duration_seconds',
    type: 'histogram',
    buckets: SECONDS_FAST,
    help: 'POST /api/gold/mint, from the request to the answer, in the web.',
  },
  queuePickupSeconds: {
    name: 'mintdesk_queue_pickup_seconds',
    type: 'histogram',
    buckets: SECONDS_QUEUE,
    help: "From a job's enqueued event to its first attempt's start, per task.",
  },
  kmsSignSeconds: {
    name: 'mintdesk_kms_sign_duration_seconds',
    type: 'histogram',
    buckets: SECONDS_FAST,
    help: 'KMS Sign requests, each SDK attempt, in the worker.',
  },
  requestToBroadcastSeconds: {
    name: 'mintdesk_request_to_broadcast_seconds',
    type: 'histogram',
    buckets: SECONDS_CHAIN,
    help: "From an order's creation to its first broadcast.",
  },
  broadcastToConfirmedSeconds: {
    name: 'mintdesk_broadcast_to_confirmed_seconds',
    type: 'histogram',
    buckets: SECONDS_CHAIN,
    help: "From an order's first broadcast to its first confirmation.",
  },
  jobRunSeconds: {
    name: 'mintdesk_job_run_duration_seconds',
    type: 'histogram',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    help: 'Run time of job attempts, per task (succeeded and failed).',
  },
} as const satisfies Record<string, MetricFamilyInfo>

/** job_events names per counted fact (the event names of lib/jobs/recordJobEvent.ts) */
export const TX_SENT_EVENTS = {
  broadcast: 'mint',
  replaced: 'replacement',
  rebroadcast: 'rebroadcast',
  gap_filled: 'gap_fill',
} as const
/** F's fault counts (lib/ops/faultCounts.ts): job_events of task 'faults', data.count each */
export const FAULT_EVENTS = ['kms_throttled', 'kms_sign_retry', 'rpc_retry', 'rpc_rate_limited'] as const
