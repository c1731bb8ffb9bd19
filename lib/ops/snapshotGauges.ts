import type { ApiMetrics, ApiSystem } from './apiTypes'
import { LIVE_JOB_STATES } from '@/lib/jobs/jobStates'

export type FormatPrometheusMetricsParameters = { metrics: ApiMetrics; system: ApiSystem }

/** a number, or an exact decimal string (wei, ounces: written as-is, never through a float) */
type Sample = { labels?: Record<string, string>; value: number | string | null }
type Family = { name: string; help: string; type: 'gauge'; samples: Sample[] }

/**
 * The admin figures in the Prometheus text exposition format (version 0.0.4), for
 * Prometheus, Grafana Agent or the CloudWatch agent. All gauges: windowed figures
 * (failure ratio, run-time quantiles) cover `mintdesk_metrics_window_seconds`. A figure
 * that is unknown (no attempts in the window, chain down) is left out, not sent as 0.
 */
export function formatPrometheusMetrics({ metrics, system }: FormatPrometheusMetricsParameters): string {
  const families: Family[] = [
    {
      name: 'mintdesk_jobs',
      help: 'Live jobs per task and state (graphile-worker queue depth).',
      type: 'gauge',
      samples: metrics.tasks.flatMap((t) => LIVE_JOB_STATES.map((state) => ({ labels: { task: t.task, state }, value: t.depth[state] }))),
    },
    {
      name: 'mintdesk_dead_letters',
      help: 'Jobs whose attempts are used up and wait for an admin (should be 0).',
      type: 'gauge',
      samples: [{ value: metrics.deadLetters.count }],
    },
    {
      name: 'mintdesk_oldest_queued_job_age_seconds',
      help: 'How long the oldest job ready to run has been waiting, per task.',
      type: 'gauge',
      samples: metrics.tasks.map((t) => ({ labels: { task: t.task }, value: t.oldestQueuedAgeSeconds ?? 0 })),
    },
    {
      name: 'mintdesk_metrics_window_seconds',
      help: 'The look-back window of the windowed job figures.',
      type: 'gauge',
      samples: [{ value: metrics.windowSeconds }],
    },
    {
      name: 'mintdesk_job_attempts_window',
      help: 'Job attempts finished in the window, per task and outcome.',
      type: 'gauge',
      samples: metrics.tasks.flatMap((t) => [
        { labels: { task: t.task, outcome: 'succeeded' }, value: t.succeeded },
        { labels: { task: t.task, outcome: 'failed' }, value: t.failed },
      ]),
    },
    {
      name: 'mintdesk_job_failure_ratio',
      help: 'Failed attempts / finished attempts in the window, per task.',
      type: 'gauge',
      samples: metrics.tasks.map((t) => ({ labels: { task: t.task }, value: t.failureRate })),
    },
    {
      name: 'mintdesk_job_duration_seconds',
      help: 'Job run time quantiles in the window, per task.',
      type: 'gauge',
      samples: metrics.tasks.flatMap((t) => [
        { labels: { task: t.task, quantile: '0.5' }, value: msToSeconds(t.p50Ms) },
        { labels: { task: t.task, quantile: '0.95' }, value: msToSeconds(t.p95Ms) },
      ]),
    },
    {
      name: 'mintdesk_job_died_window',
      help: 'Jobs that became dead letters in the window, per task.',
      type: 'gauge',
      samples: metrics.tasks.map((t) => ({ labels: { task: t.task }, value: t.died })),
    },
    {
      name: 'mintdesk_worker_stale_after_seconds',
      help: 'A worker silent this long has its jobs taken over (compare with the run time quantiles).',
      type: 'gauge',
      samples: [{ value: metrics.limits.staleAfterMs / 1000 }],
    },
    {
      name: 'mintdesk_workers_alive',
      help: 'Workers whose heartbeat is recent.',
      type: 'gauge',
      samples: [{ value: system.workers.filter((w) => w.alive).length }],
    },
    {
      name: 'mintdesk_fee_capped_orders',
      help: 'Open orders held back by the fee ceiling (MAX_FEE_PER_GAS / MAX_PRIORITY_FEE): the chain asks for more (should be 0).',
      type: 'gauge',
      samples: [{ value: system.feeCappedOrders }],
    },
    {
      name: 'mintdesk_reserve_shortfall_oz',
      help: 'Token supply above the fine gold backing it (backing + in flight), in troy ounces, at the latest reserve check (should be 0).',
      type: 'gauge',
      samples: system.reserveCheck ? [{ value: system.reserveCheck.shortfallOz }] : [],
    },
    {
      name: 'mintdesk_reserve_check_age_seconds',
      help: 'Seconds since the latest reserve check (reserve_check runs every RESERVE_CHECK_MS, 60 s by default): a growing age means no check runs.',
      type: 'gauge',
      samples: system.reserveCheck ? [{ value: system.reserveCheck.ageSeconds }] : [],
    },
    {
      name: 'mintdesk_chain_up',
      help: '1 when the chain RPC answered the health read, else 0.',
      type: 'gauge',
      samples: [{ value: system.chain.available ? 1 : 0 }],
    },
    {
      name: 'mintdesk_signer_next_nonce',
      help: 'The next nonce Postgres hands out, per signer.',
      type: 'gauge',
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.nextNonce })),
    },
    {
      name: 'mintdesk_signer_chain_nonce',
      help: "The signer's transaction count at the latest block.",
      type: 'gauge',
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.chainNonce })),
    },
    {
      name: 'mintdesk_signer_in_flight',
      help: 'Nonces reserved or signed and not yet mined, per signer.',
      type: 'gauge',
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.inFlight })),
    },
    {
      name: 'mintdesk_signer_balance_wei',
      help: 'Gas balance of the signer in wei (as a float: precise to about 16 digits).',
      type: 'gauge',
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.balanceWei })),
    },
    {
      name: 'mintdesk_signer_low_balance',
      help: '1 when the signer balance is under the low-balance threshold.',
      type: 'gauge',
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.lowBalance === null ? null : s.lowBalance ? 1 : 0 })),
    },
  ]

  const lines: string[] = []
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`)
    for (const s of f.samples) {
      if (s.value === null) continue
      if (typeof s.value === 'string') {
        if (/^\d+(\.\d+)?$/.test(s.value)) lines.push(`${f.name}${formatLabels(s.labels)} ${s.value}`)
        continue
      }
      if (!Number.isFinite(s.value)) continue
      lines.push(`${f.name}${formatLabels(s.labels)} ${formatValue(s.value)}`)
    }
  }
  return `${lines.join('\n')}\n`
}

function msToSeconds(ms: number | null): number | null {
  return ms === null ? null : ms / 1000
}

function formatLabels(labels: Record<string, string> | undefined): string {
  if (!labels || Object.keys(labels).length === 0) return ''
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`)
  return `{${parts.join(',')}}`
}

function formatValue(value: number): string {
  return Number.isInteger(value) ? value.toString() : value.toPrecision(15).replace(/\.?0+$/, '')
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
}
