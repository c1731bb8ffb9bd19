import type postgres from 'postgres'
import type { Address, PublicClient } from 'viem'
import type { SignThrottle } from '@/scripts/stack/kms/throttleSign'
import type { RpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import type { Api } from './api'
import { checkInvariants } from './checkInvariants'
import { type PlannedOrder, submitAll } from './orders'
import { type PostgresControl, restartPostgresUnderLoad, waitForSettled } from './scenarios'

/**
 * The faults production meets most, one after the other on a quiet system,
 * each over its own batch of orders submitted through the HTTP API while it lasts:
 * - baseline: no fault (the confirmation latency the others are compared with);
 * - KMS throttling: the endpoint allows 20 Sign/s and another service of the account
 *   takes the whole quota 1 s in every 3;
 * - RPC limits: a third of the requests answered 429 (Retry-After 1), 300 ms added to
 *   each, 2% of the connections dropped, and the head lagging 5 s in every 15;
 * - a database failover: Postgres stopped for 90 s in the middle of the batch.
 * For each: orders lost and doubled (checkInvariants on the batch), the time from the
 * end of the fault until the last order of the batch is confirmed, and the median
 * confirmation latency (created -> confirmed) against the baseline's.
 */

export type FaultFigures = {
  name: string
  orders: number
  accepted: number
  lost: number
  doubled: number
  /** how long the fault lasted */
  faultMs: number
  /** from the end of the fault until every order of its batch was confirmed (0 if they all were before) */
  recoveredAfterMs: number
  p50ConfirmMs: number
  p95ConfirmMs: number
  /** p50 over the baseline's p50 */
  extraP50Ms: number
  /** what the fault did, as counted (throttles, 429s, /api/ready answers...) */
  detail: string
}

export type ProductionFaultsReport = { faults: FaultFigures[]; problems: string[] }

export type RunProductionFaultsParameters = {
  api: Api
  sql: postgres.Sql
  chain: PublicClient
  tokenAddress: Address
  kmsThrottle: SignThrottle
  rpcProxy: RpcFaultProxy
  pg: PostgresControl
  /** planned and stocked orders, at least 4 x perFault */
  orders: readonly PlannedOrder[]
  perFault: number
  liveWorkerIds: () => ReadonlySet<string>
  log: (line: string) => void
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pct = (xs: number[], p: number) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]

export async function runProductionFaults(p: RunProductionFaultsParameters): Promise<ProductionFaultsReport> {
  const { log } = p
  const problems: string[] = []
  const faults: FaultFigures[] = []
  const batches = [0, 1, 2, 3].map((i) => p.orders.slice(i * p.perFault, (i + 1) * p.perFault))
  let baselineP50 = 0

  const measure = async (
    name: string,
    batch: readonly PlannedOrder[],
    run: (submit: () => Promise<string[]>) => Promise<{ faultMs: number; endedAt: number; detail: string }>,
  ) => {
    log(`production fault: ${name} (${batch.length} orders)`)
    let accepted: string[] = []
    const { faultMs, endedAt, detail } = await run(async () => {
      const outcomes = await submitAll(p.api, {
        orders: batch,
        approveAs: 'approver',
        concurrency: 3,
        perSecond: 3,
        giveUpAfterMs: 240_000,
        requestTimeoutMs: 15_000,
      })
      accepted = outcomes.flatMap((o) => o.orderId ?? [])
      return accepted
    })
    await waitForSettled({ sql: p.sql, chain: p.chain, timeoutMs: 300_000, log, liveWorkerIds: p.liveWorkerIds })
    const rows = await p.sql<{ ms: string | null; confirmed_ms: string | null }[]>`
      select (extract(epoch from (confirmed_at - created_at)) * 1000)::text as ms, (extract(epoch from confirmed_at) * 1000)::text as confirmed_ms
      from mint_orders where id = any(${accepted}::uuid[])`
    const latencies = rows.flatMap((r) => (r.ms === null ? [] : [Number(r.ms)]))
    const lastConfirmed = Math.max(0, ...rows.map((r) => Number(r.confirmed_ms ?? 0)))
    const report = await checkInvariants({
      sql: p.sql,
      chain: p.chain,
      tokenAddress: p.tokenAddress,
      expectedOrderIds: accepted,
      liveWorkerIds: p.liveWorkerIds(),
    }).catch(() => undefined)
    const inBatch = new Set(accepted)
    const unconfirmed = accepted.length - latencies.length
    const lost = report ? report.lost.filter((id) => inBatch.has(id)).length : unconfirmed
    const doubled = report ? report.doubled.filter((id) => inBatch.has(id)).length : 0
    const p50 = pct(latencies, 0.5)
    if (name === 'baseline') baselineP50 = p50
    const figures: FaultFigures = {
      name,
      orders: batch.length,
      accepted: accepted.length,
      lost,
      doubled,
      faultMs,
      recoveredAfterMs: Math.max(0, lastConfirmed - endedAt),
      p50ConfirmMs: p50,
      p95ConfirmMs: pct(latencies, 0.95),
      extraP50Ms: p50 - baselineP50,
      detail,
    }
    faults.push(figures)
    log(`production fault ${name}: ${JSON.stringify(figures)}`)
    if (accepted.length !== batch.length)
      problems.push(`${name}: ${accepted.length} of ${batch.length} orders accepted`)
    if (lost) problems.push(`${name}: ${lost} order(s) lost`)
    if (unconfirmed) problems.push(`${name}: ${unconfirmed} order(s) not confirmed`)
    if (doubled) problems.push(`${name}: ${doubled} order(s) minted twice`)
  }

  await measure('baseline', batches[0], async (submit) => {
    await submit()
    return { faultMs: 0, endedAt: Date.now(), detail: 'no fault' }
  })

  await measure('KMS throttling', batches[1], async (submit) => {
    const before = p.kmsThrottle.counts.throttled
    p.kmsThrottle.setRate(20)
    let on = true
    const neighbour = (async () => {
      while (on) {
        await sleep(2_000)
        for (let i = 0; i < 50 && on; i++) {
          p.kmsThrottle.spend(20)
          await sleep(20)
        }
      }
    })()
    const t0 = Date.now()
    await submit()
    await sleep(5_000)
    on = false
    await neighbour
    p.kmsThrottle.setRate(undefined)
    return {
      faultMs: Date.now() - t0,
      endedAt: Date.now(),
      detail: `20 Sign/s, the quota taken 1 s in 3; ${p.kmsThrottle.counts.throttled - before} Sign calls throttled`,
    }
  })

  await measure('RPC limits and a lagging head', batches[2], async (submit) => {
    const before = { ...p.rpcProxy.counts }
    const [reorgsBefore] = await p.sql<
      { n: number }[]
    >`select count(*)::int as n from job_events where event = 'reorged'`
    p.rpcProxy.setFaults({
      rateLimit: 1 / 3,
      retryAfterSeconds: 1,
      latencyMs: 300,
      drop: 0.02,
      lag: { everyMs: 15_000, forMs: 5_000 },
    })
    const t0 = Date.now()
    await submit()
    await sleep(10_000)
    p.rpcProxy.setFaults({})
    const c = p.rpcProxy.counts
    const [reorgsAfter] = await p.sql<
      { n: number }[]
    >`select count(*)::int as n from job_events where event = 'reorged'`
    return {
      faultMs: Date.now() - t0,
      endedAt: Date.now(),
      detail: `${c.requests - before.requests} requests: ${c.rateLimited - before.rateLimited} answered 429, ${c.dropped - before.dropped} dropped, ${c.lagged - before.lagged} served from a lagging head; 'reorged' events meanwhile: ${reorgsAfter.n - reorgsBefore.n}`,
    }
  })

  await measure('database failover (90 s)', batches[3], async (submit) => {
    const submitting = submit()
    await sleep(5_000)
    const outage = await restartPostgresUnderLoad({ pg: p.pg, api: p.api, downForMs: 90_000, probes: [], log })
    await submitting
    if (Object.keys(outage.readyWhileDown).some((s) => s !== '503'))
      problems.push(`database failover: /api/ready while down ${JSON.stringify(outage.readyWhileDown)}`)
    return {
      faultMs: outage.downMs,
      endedAt: Date.now() - outage.recoveredAfterMs,
      detail: `down ${(outage.downMs / 1000).toFixed(1)} s; /api/ready meanwhile ${Object.entries(outage.readyWhileDown)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}; ready again ${(outage.recoveredAfterMs / 1000).toFixed(1)} s after the start`,
    }
  })
  return { faults, problems }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** docs/reliability.md's section of the production faults, one table per run (scripts/test-chaos.ts). */
export function renderProductionFaults(reports: readonly (ProductionFaultsReport | null)[]): string {
  if (reports.every((r) => r === null)) return ''
  const tables = reports.map((r, i) => {
    if (!r) return `Run ${i + 1}: not reached.\n`
    const rows = r.faults.map(
      (f) =>
        `| ${f.name} | ${f.accepted} / ${f.orders} | **${f.lost}** | **${f.doubled}** | ${f.faultMs ? sec(f.faultMs) : '-'} | ${f.name === 'baseline' ? '-' : sec(f.recoveredAfterMs)} | ${sec(f.p50ConfirmMs)} / ${sec(f.p95ConfirmMs)} | ${f.name === 'baseline' ? '-' : `${f.extraP50Ms >= 0 ? '+' : ''}${sec(f.extraP50Ms)}`} | ${f.detail} |`,
    )
    return `Run ${i + 1}:\n\n| fault | orders accepted | lost | doubled | fault lasted | recovered after | confirmation p50 / p95 | extra p50 | what happened |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`
  })
  return `
## Production faults (issue 18)

After phase 1 settles, each fault runs on its own batch of orders sent through the HTTP API
while it lasts (tests/chaos/productionFaults.ts): **KMS throttling** (the local endpoint at 20
Sign/s, another service of the account taking the whole quota 1 s in every 3), **RPC limits**
(the workers' fault proxy answering a third of the requests 429 with Retry-After 1 s, adding
300 ms to each, dropping 2% of the connections, and serving a head that lags 5 s in every
15 s), and a **database failover** (Postgres stopped for 90 s in the middle of the batch).
"Recovered after": from the end of the fault until the batch's last order was confirmed;
"extra p50": the median confirmation latency (order created -> confirmed) over the
baseline batch's, which ran just before with no fault.

${tables.join('\n')}`
}
