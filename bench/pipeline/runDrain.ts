import type postgres from 'postgres'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import { nowMs } from '../system/clock'
import { type PgStatementsWindow, readPgStatements, resetPgStatements } from '../system/pgStatements'
import type { CpuUsage } from '../system/startCpuMeter'
import type { CpuTimeline } from '../system/startCpuTimeline'
import { activateSigners } from './activateSigners'
import type { OrderApprover } from './createOrderApprover'
import { listOrderTimings } from './listOrderTimings'
import { listWorkerBusy, type TaskBusy } from './listWorkerBusy'
import { type OrderLatencies, orderLatencies } from './orderStages'
import { submitOrders } from './submitOrders'
import { waitForOrders } from './waitForOrders'

export type DrainResult = {
  signers: number
  workers: number
  /** the orders accepted into the queue (workers stopped) */
  orders: number
  refused: number
  /**
   * the orders' intake through the API (they wait for approval): first request -> last 202,
   * and the CPU of that window
   */
  intake: { seconds: number; perSecond: number; cpu: CpuUsage }
  /**
   * filling the queue: the dev approvers sign every order and post it to the approve endpoint (the web checks
   * each signature, adds its mint_send job); first approval sent -> last answered, and the CPU of that window
   */
  approval?: { seconds: number; perSecond: number; cpu: CpuUsage }
  /** first job event of the batch (a worker took an order) -> last confirmation */
  seconds: number
  confirmedPerSecond: number
  byStatus: Record<string, number>
  settled: boolean
  /** CPU per process group over the drain's window (the workers' start before their first job left out) */
  cpu: CpuUsage
  /** Postgres's own execution time over the drain, by statement (pg_stat_statements) */
  statements: PgStatementsWindow
  /** worker-slot time per task over the drain (job_events durations) */
  busy: TaskBusy[]
  failures: number
  latencies: OrderLatencies
}

export type RunDrainParameters = {
  sql: postgres.Sql
  poster: JsonPoster
  bodies: MintBodies
  /** the worker's signers, in key order; the first `signers` are activated */
  workerSigners: readonly string[]
  signers: number
  workers: number
  orders: number
  submitConcurrency: number
  approver: OrderApprover
  /** starts one worker process (resolves once it registered), stops them all */
  startWorker: () => Promise<unknown>
  stopWorkers: () => Promise<void>
  timeline: CpuTimeline
  timeoutMs: number
  log: (line: string) => void
}

/**
 * The drain, apart from the intake: with no worker running, N
 * orders go in through the API and the dev approvers approve each through the approve endpoint
 * (the queue fills); then `workers` worker processes start and the clock
 * runs from the first job event of the batch to its last confirmation. CPU is charged to
 * the orders over exactly that window, per process group (CpuTimeline), and over the approvals'
 * window (the web's signature checks; report/drainCpu.ts adds both), so neither the
 * intake nor a worker's boot counts. The workers are stopped at the end: every drain
 * starts from an idle stack.
 */
export async function runDrain(p: RunDrainParameters): Promise<DrainResult> {
  await activateSigners(p.sql, { addresses: p.workerSigners.slice(0, p.signers) })
  const submitted = await submitOrders({
    poster: p.poster,
    bodies: p.bodies,
    count: p.orders,
    mode: { kind: 'burst', concurrency: p.submitConcurrency },
  })
  const intakeSeconds = (submitted.lastAnsweredAt - submitted.firstSentAt) / 1000
  const intake = {
    seconds: intakeSeconds,
    perSecond: submitted.orders.length / Math.max(intakeSeconds, 1e-9),
    cpu: p.timeline.between(submitted.firstSentAt, submitted.lastAnsweredAt),
  }
  const ids = submitted.orders.map((o) => o.orderId)
  const approvalStart = nowMs()
  await p.approver.approveAll(ids, p.submitConcurrency)
  const approvalEnd = nowMs()
  const approvalSeconds = (approvalEnd - approvalStart) / 1000
  const approval = {
    seconds: approvalSeconds,
    perSecond: ids.length / Math.max(approvalSeconds, 1e-9),
    cpu: p.timeline.between(approvalStart, approvalEnd),
  }

  await resetPgStatements(p.sql)
  let waited: Awaited<ReturnType<typeof waitForOrders>>
  try {
    await Promise.all(Array.from({ length: p.workers }, () => p.startWorker()))
    waited = await waitForOrders({ sql: p.sql, orderIds: ids, timeoutMs: p.timeoutMs })
  } finally {
    await p.stopWorkers()
  }
  const statements = await readPgStatements(p.sql, { limit: 12 })
  const timings = await listOrderTimings(p.sql, { orderIds: ids })
  const start = timings.reduce((a, t) => Math.min(a, t.firstWork ?? Number.POSITIVE_INFINITY), Number.POSITIVE_INFINITY)
  const end = timings.reduce((a, t) => Math.max(a, t.confirmed ?? 0), 0)
  const confirmed = timings.filter((t) => t.confirmed !== null).length
  const seconds = Number.isFinite(start) && end > start ? (end - start) / 1000 : NaN
  const result: DrainResult = {
    signers: p.signers,
    workers: p.workers,
    orders: submitted.orders.length,
    refused: submitted.refused,
    intake,
    approval,
    seconds,
    confirmedPerSecond: Number.isFinite(seconds) ? confirmed / seconds : 0,
    byStatus: waited.byStatus,
    settled: waited.settled,
    cpu: p.timeline.between(Number.isFinite(start) ? start : submitted.lastAnsweredAt, end || Date.now()),
    statements,
    busy: Number.isFinite(start) ? await listWorkerBusy(p.sql, { from: start, to: end + 1 }) : [],
    failures: timings.reduce((a, t) => a + t.failures, 0),
    latencies: orderLatencies(timings),
  }
  p.log(
    `drain ${p.signers} signer(s) x ${p.workers} worker(s): ${confirmed}/${result.orders} confirmed in ${seconds.toFixed(1)} s = ${result.confirmedPerSecond.toFixed(1)}/s` +
      ` (intake ${intake.perSecond.toFixed(0)}/s, approvals ${approval.perSecond.toFixed(0)}/s) ${JSON.stringify(waited.byStatus)}`,
  )
  return result
}
