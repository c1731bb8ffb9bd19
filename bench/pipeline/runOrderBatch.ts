import type postgres from 'postgres'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import type { ProcessGroupsSource } from '../system/processGroups'
import { type Summary, summarize } from '../system/percentiles'
import { type CpuUsage, startCpuMeter } from '../system/startCpuMeter'
import { type OrderTimings, readOrderTimings } from './readOrderTimings'
import { readWorkerBusy, type TaskBusy } from './readWorkerBusy'
import { type SubmitOrdersParameters, submitOrders } from './submitOrders'
import { waitForOrders } from './waitForOrders'

export type OrderBatchResult = {
  mode: SubmitOrdersParameters['mode']
  submitted: number
  refused: number
  byStatus: Record<string, number>
  settled: boolean
  /** first request sent -> last 202 received */
  intakeSeconds: number
  /** first request sent -> last order confirmed */
  seconds: number
  confirmedPerSecond: number
  /** 'enqueued' -> 'broadcast' and -> 'confirmed' (job_events) */
  toBroadcast: Summary
  toConfirmed: Summary
  /** the same from the client's send time */
  sentToBroadcast: Summary
  /** commit of the intake transaction -> mint_send started */
  pickup: Summary
  /** each step of an order, in order */
  stages: Array<{ name: string; summary: Summary }>
  /**
   * per signer, the time between two consecutive signing commits: while a signer is
   * saturated, the time one signing holds its nonce row (its service time)
   */
  signInterval: Summary
  /** worker-slot time spent inside signing transactions, BEGIN to COMMIT (waiting for the signer's row included) */
  signTxnMs: number
  /** mint_confirm runs per confirmed order */
  confirmRunsPerOrder: number
  failures: number
  cpu: CpuUsage
  busy: TaskBusy[]
}

export type RunOrderBatchParameters = {
  sql: postgres.Sql
  poster: JsonPoster
  bodies: MintBodies
  count: number
  mode: SubmitOrdersParameters['mode']
  timeoutMs: number
  groups: ProcessGroupsSource
}

/**
 * N orders through the API with the worker(s) running, until every one is confirmed:
 * throughput, latencies and the per-step breakdown from job_events, CPU per process and
 * worker-slot time per task over the same window.
 */
export async function runOrderBatch(p: RunOrderBatchParameters): Promise<OrderBatchResult> {
  const meter = startCpuMeter({ groups: p.groups })
  const submitted = await submitOrders({ poster: p.poster, bodies: p.bodies, count: p.count, mode: p.mode })
  const ids = submitted.orders.map((o) => o.orderId)
  const waited = await waitForOrders({ sql: p.sql, orderIds: ids, timeoutMs: p.timeoutMs })
  const cpu = meter.stop()
  const timings = await readOrderTimings(p.sql, { orderIds: ids })
  const sentAt = new Map(submitted.orders.map((o) => [o.orderId, o.sentAt]))
  const lastConfirmed = timings.reduce((a, t) => Math.max(a, t.confirmed ?? 0), 0)
  const confirmed = timings.filter((t) => t.confirmed !== null)
  const seconds = ((lastConfirmed || submitted.lastAnsweredAt) - submitted.firstSentAt) / 1000
  const busy = await readWorkerBusy(p.sql, { from: submitted.firstSentAt, to: Math.max(lastConfirmed, submitted.lastAnsweredAt) + 1000 })
  const d = (pick: (t: OrderTimings) => [number | null | undefined, number | null | undefined]) =>
    summarize(
      timings.flatMap((t) => {
        const [a, b] = pick(t)
        return a != null && b != null ? [b - a] : []
      }),
    )
  return {
    mode: p.mode,
    submitted: submitted.orders.length,
    refused: submitted.refused,
    byStatus: waited.byStatus,
    settled: waited.settled,
    intakeSeconds: (submitted.lastAnsweredAt - submitted.firstSentAt) / 1000,
    seconds,
    confirmedPerSecond: seconds > 0 ? confirmed.length / seconds : 0,
    toBroadcast: d((t) => [t.enqueued, t.broadcast]),
    toConfirmed: d((t) => [t.enqueued, t.confirmed]),
    sentToBroadcast: d((t) => [sentAt.get(t.orderId), t.broadcast]),
    pickup: d((t) => [t.committed, t.started]),
    stages: [
      { name: 'request sent -> intake transaction began (HTTP, session, validation)', summary: d((t) => [sentAt.get(t.orderId), t.enqueued]) },
      { name: 'intake transaction (order, bars, job) -> committed', summary: d((t) => [t.enqueued, t.committed]) },
      { name: 'committed -> mint_send started (queue pickup)', summary: d((t) => [t.committed, t.started]) },
      { name: 'started -> simulated (order read, eth_call, gas, fees)', summary: d((t) => [t.started, t.simulated]) },
      { name: 'simulated -> signing transaction began', summary: d((t) => [t.simulated, t.signBegan]) },
      { name: 'signing transaction (nonce row lock, KMS Sign, store) -> committed', summary: d((t) => [t.signBegan, t.signCommitted]) },
      { name: 'committed -> broadcast recorded (eth_sendRawTransaction)', summary: d((t) => [t.signCommitted, t.broadcast]) },
      { name: 'broadcast -> mint_confirm started (its job waits for a free slot)', summary: d((t) => [t.broadcast, t.confirmStarted]) },
      { name: 'mint_confirm started -> confirmed (the block, receipt polls)', summary: d((t) => [t.confirmStarted, t.confirmed]) },
    ],
    signInterval: signIntervals(timings),
    signTxnMs: timings.reduce((a, t) => a + (t.signBegan !== null && t.signCommitted !== null ? t.signCommitted - t.signBegan : 0), 0),
    confirmRunsPerOrder: confirmed.length > 0 ? confirmed.reduce((a, t) => a + t.confirmRuns, 0) / confirmed.length : 0,
    failures: timings.reduce((a, t) => a + t.failures, 0),
    cpu,
    busy,
  }
}

function signIntervals(timings: readonly OrderTimings[]): Summary {
  const bySigner = new Map<string, number[]>()
  for (const t of timings) {
    if (t.signer === null || t.signCommitted === null) continue
    const list = bySigner.get(t.signer) ?? []
    list.push(t.signCommitted)
    bySigner.set(t.signer, list)
  }
  const gaps: number[] = []
  for (const commits of bySigner.values()) {
    commits.sort((a, b) => a - b)
    for (let i = 1; i < commits.length; i++) gaps.push((commits[i] as number) - (commits[i - 1] as number))
  }
  return summarize(gaps)
}
