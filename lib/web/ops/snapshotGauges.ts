import { LIVE_JOB_STATES } from '@/lib/jobs/jobStates'
import type { ApiMetrics, ApiSystem } from '@/lib/web/admin/apiTypes'
import type { ExpositionFamily } from './formatExposition'

export type SnapshotGaugesParameters = { metrics: ApiMetrics; system: ApiSystem }

/**
 * The gauges of GET /api/metrics: true snapshots of now (queue depth, oldest queued age,
 * workers alive, signer nonces and balance, fee-capped orders, reserve shortfall). What
 * happened over time is a counter or a histogram (lib/web/ops/listCounterFamilies.ts and its
 * siblings, decision 020): Prometheus takes rate() and quantiles from those, across
 * restarts and replicas. A figure that is unknown (chain down, no check yet) is left out,
 * not sent as 0; a string is an exact decimal (wei, ounces) written as-is.
 */
export function snapshotGauges({ metrics, system }: SnapshotGaugesParameters): ExpositionFamily[] {
  return [
    {
      name: 'mintdesk_jobs',
      help: 'Live jobs per task and state (graphile-worker queue depth).',
      type: 'gauge' as const,
      samples: metrics.tasks.flatMap((t) =>
        LIVE_JOB_STATES.map((state) => ({ labels: { task: t.task, state }, value: t.depth[state] })),
      ),
    },
    {
      name: 'mintdesk_dead_letters',
      help: 'Jobs whose attempts are used up and wait for an admin (should be 0).',
      type: 'gauge' as const,
      samples: [{ value: metrics.deadLetters.count }],
    },
    {
      name: 'mintdesk_oldest_queued_job_age_seconds',
      help: 'How long the oldest job ready to run has been waiting, per task.',
      type: 'gauge' as const,
      samples: metrics.tasks.map((t) => ({ labels: { task: t.task }, value: t.oldestQueuedAgeSeconds ?? 0 })),
    },
    {
      name: 'mintdesk_worker_stale_after_seconds',
      help: 'A worker silent this long has its jobs taken over (compare with the job run time histogram, mintdesk_job_run_duration_seconds).',
      type: 'gauge' as const,
      samples: [{ value: metrics.limits.staleAfterMs / 1000 }],
    },
    {
      name: 'mintdesk_workers_alive',
      help: 'Workers whose heartbeat is recent.',
      type: 'gauge' as const,
      samples: [{ value: system.workers.filter((w) => w.alive).length }],
    },
    {
      name: 'mintdesk_fee_capped_orders',
      help: 'Open orders held back by the fee ceiling (MAX_FEE_PER_GAS / MAX_PRIORITY_FEE): the chain asks for more (should be 0).',
      type: 'gauge' as const,
      samples: [{ value: system.feeCappedOrders }],
    },
    {
      name: 'mintdesk_unreconciled_events',
      help: 'Chain events no row of the desk accounts for (a mint outside mintdesk), not resolved by an admin (should be 0).',
      type: 'gauge' as const,
      samples: [{ value: system.unreconciledEvents }],
    },
    {
      name: 'mintdesk_reserve_shortfall_oz',
      help: 'Token supply above the fine gold backing it (backing + in flight), in troy ounces, at the latest reserve check (should be 0).',
      type: 'gauge' as const,
      samples: system.reserveCheck ? [{ value: system.reserveCheck.shortfallOz }] : [],
    },
    {
      name: 'mintdesk_reserve_check_age_seconds',
      help: 'Seconds since the latest reserve check (reserve_check runs every RESERVE_CHECK_MS, 60 s by default): a growing age means no check runs.',
      type: 'gauge' as const,
      samples: system.reserveCheck ? [{ value: system.reserveCheck.ageSeconds }] : [],
    },
    {
      name: 'mintdesk_signing_stopped',
      help: '1 while the stop switch is on: no worker signs a new transaction (queued work waits), else 0.',
      type: 'gauge' as const,
      samples: [{ value: system.signing.stopped ? 1 : 0 }],
    },
    {
      name: 'mintdesk_chain_up',
      help: '1 when the chain RPC answered the health read, else 0.',
      type: 'gauge' as const,
      samples: [{ value: system.chain.available ? 1 : 0 }],
    },
    {
      name: 'mintdesk_signer_next_nonce',
      help: 'The next nonce Postgres hands out, per signer.',
      type: 'gauge' as const,
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.nextNonce })),
    },
    {
      name: 'mintdesk_signer_chain_nonce',
      help: "The signer's transaction count at the latest block.",
      type: 'gauge' as const,
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.chainNonce })),
    },
    {
      name: 'mintdesk_signer_in_flight',
      help: 'Nonces reserved or signed and not yet mined, per signer.',
      type: 'gauge' as const,
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.inFlight })),
    },
    {
      name: 'mintdesk_signer_balance_wei',
      help: 'Gas balance of the signer in wei (as a float: precise to about 16 digits).',
      type: 'gauge' as const,
      samples: system.signers.map((s) => ({ labels: { signer: s.address }, value: s.balanceWei })),
    },
    {
      name: 'mintdesk_signer_low_balance',
      help: '1 when the signer balance is under the low-balance threshold.',
      type: 'gauge' as const,
      samples: system.signers.map((s) => ({
        labels: { signer: s.address },
        value: s.lowBalance === null ? null : s.lowBalance ? 1 : 0,
      })),
    },
  ]
}
