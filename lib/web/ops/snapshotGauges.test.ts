import { describe, expect, it } from 'vitest'
import type { ApiMetrics, ApiSystem } from '@/lib/web/admin/apiTypes'
import type { ApiReserveCheck } from '@/lib/web/reserves/apiTypes'
import { formatExposition } from './formatExposition'
import { snapshotGauges } from './snapshotGauges'

const formatPrometheusMetrics = (p: Parameters<typeof snapshotGauges>[0]) => formatExposition(snapshotGauges(p))

const metrics: ApiMetrics = {
  generatedAt: '2026-01-01T00:00:00.000Z',
  windowSeconds: 3600,
  depth: [{ task: 'mint_send', state: 'dead', count: 2 }],
  totals: { queued: 1, scheduled: 0, running: 0, retrying: 0, dead: 2 },
  oldestQueued: { jobId: '9', task: 'mint_send', ageSeconds: 12.5, runAt: '2026-01-01T00:00:00.000Z' },
  tasks: [
    {
      task: 'mint_send',
      depth: { queued: 1, scheduled: 0, running: 0, retrying: 0, dead: 2 },
      oldestQueuedAgeSeconds: 12.5,
      succeeded: 3,
      failed: 1,
      failureRate: 0.25,
      p50Ms: 1200,
      p95Ms: 4000,
      maxMs: 4000,
      died: 1,
    },
    {
      task: 'nonce_"health"',
      depth: { queued: 0, scheduled: 0, running: 0, retrying: 0, dead: 0 },
      oldestQueuedAgeSeconds: null,
      succeeded: 0,
      failed: 0,
      failureRate: null,
      p50Ms: null,
      p95Ms: null,
      maxMs: null,
      died: 0,
    },
  ],
  deadLetters: { count: 2, recent: [] },
  throughput: { bucketSeconds: 60, buckets: [] },
  limits: { heartbeatMs: 2000, staleAfterMs: 30000, lockTimeoutMs: 14400000 },
}

const system: ApiSystem = {
  chainId: 31337,
  rpcEndpoints: [],
  tokenAddress: null,
  confirmations: 1,
  signers: [
    {
      address: '0xabc',
      active: true,
      nextNonce: 7,
      chainNonce: 5,
      pending: 6,
      balanceWei: '50000000000000000',
      inFlight: 2,
      lowBalance: true,
      pendingNonces: [],
    },
    {
      address: '0xdef',
      active: true,
      nextNonce: 1,
      chainNonce: null,
      pending: null,
      balanceWei: null,
      inFlight: 0,
      lowBalance: null,
      pendingNonces: [],
    },
  ],
  workers: [
    { id: 'a', host: 'h', pid: 1, startedAt: '', lastSeenAt: '', alive: true },
    { id: 'b', host: 'h', pid: 2, startedAt: '', lastSeenAt: '', alive: false },
  ],
  chain: { available: true, blockNumber: 10, error: null },
  lowBalanceWei: '100000000000000000',
  staleAfterMs: 30000,
  feeCappedOrders: 3,
  unreconciledEvents: 0,
  signing: { stopped: true, reason: 'incident', changedBy: 'admin@x', changedAt: '', auto: false },
  reserveCheck: {
    at: '2026-01-01T00:00:00.000Z',
    ageSeconds: 42.5,
    blockNumber: '10',
    totalSupply: '1203.252',
    backingFineOz: '802.168',
    inFlightFineOz: '0.000',
    availableFineOz: '401.084',
    missingFineOz: '401.084',
    shortfallOz: '401.084',
    status: 'shortfall',
  },
}
const coveredCheck: ApiReserveCheck = {
  ...(system.reserveCheck as ApiReserveCheck),
  shortfallOz: '0.000',
  status: 'covered',
}

describe('snapshotGauges (the gauges of GET /api/metrics)', () => {
  const text = formatPrometheusMetrics({ metrics, system })
  const lines = text.trim().split('\n')

  it('writes HELP and TYPE before each family, one sample per line', () => {
    expect(text.endsWith('\n')).toBe(true)
    expect(lines).toContain('# TYPE mintdesk_jobs gauge')
    expect(lines).toContain('mintdesk_jobs{task="mint_send",state="dead"} 2')
    expect(lines).toContain('mintdesk_dead_letters 2')
    expect(lines).toContain('mintdesk_oldest_queued_job_age_seconds{task="mint_send"} 12.5')
    expect(lines).toContain('mintdesk_workers_alive 1')
    expect(lines).toContain('# TYPE mintdesk_fee_capped_orders gauge')
    expect(lines).toContain('mintdesk_fee_capped_orders 3')
    expect(lines).toContain('mintdesk_signing_stopped 1')
    expect(lines).toContain('mintdesk_signer_in_flight{signer="0xabc"} 2')
    expect(lines).toContain('mintdesk_signer_low_balance{signer="0xabc"} 1')
    expect(lines).toContain('mintdesk_signer_balance_wei{signer="0xabc"} 50000000000000000')
  })

  it('exposes the latest reserve check: its shortfall in oz and its age', () => {
    expect(lines).toContain('# TYPE mintdesk_reserve_shortfall_oz gauge')
    expect(lines).toContain('mintdesk_reserve_shortfall_oz 401.084')
    expect(lines).toContain('mintdesk_reserve_check_age_seconds 42.5')
    const covered = formatPrometheusMetrics({ metrics, system: { ...system, reserveCheck: coveredCheck } })
    expect(covered.split('\n')).toContain('mintdesk_reserve_shortfall_oz 0.000')
    // before the first check the figure is unknown: left out, not sent as 0
    const none = formatPrometheusMetrics({ metrics, system: { ...system, reserveCheck: null } }).split('\n')
    expect(none.some((l) => l.startsWith('mintdesk_reserve_shortfall_oz '))).toBe(false)
    expect(none).toContain('# TYPE mintdesk_reserve_shortfall_oz gauge')
  })

  it('has no windowed gauges left: what happens over time is a counter or a histogram (issue 17)', () => {
    for (const gone of [
      'mintdesk_job_attempts_window',
      'mintdesk_job_failure_ratio',
      'mintdesk_job_duration_seconds',
      'mintdesk_job_died_window',
      'mintdesk_metrics_window_seconds',
    ]) {
      expect(lines.some((l) => l.includes(gone))).toBe(false)
    }
  })

  it('leaves unknown figures out and escapes label values', () => {
    expect(lines.some((l) => l.startsWith('mintdesk_signer_low_balance{signer="0xdef"}'))).toBe(false)
    expect(lines).toContain('mintdesk_jobs{task="nonce_\\"health\\"",state="queued"} 0')
  })

  it('every sample line parses as name{labels} value', () => {
    for (const line of lines.filter((l) => !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? -?[0-9.e+-]+$/)
    }
  })
})
