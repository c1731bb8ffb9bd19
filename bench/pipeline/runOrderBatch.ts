import type postgres from 'postgres'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import type { ProcessGroupsSource } from '../system/processGroups'
import { type CpuUsage, startCpuMeter } from '../system/startCpuMeter'
import type { OrderApprover } from './createOrderApprover'
import { listOrderTimings } from './listOrderTimings'
import { type OrderLatencies, orderLatencies } from './orderStages'
import { type SubmitOrdersParameters, submitOrders } from './submitOrders'
import { waitForOrders } from './waitForOrders'

export type OrderBatchResult = OrderLatencies & {
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
  failures: number
  cpu: CpuUsage
}

export type RunOrderBatchParameters = {
  sql: postgres.Sql
  poster: JsonPoster
  /** approves each order right after its 202 (the worker takes it once approved) */
  approver: OrderApprover
  bodies: MintBodies
  count: number
  mode: SubmitOrdersParameters['mode']
  timeoutMs: number
  groups: ProcessGroupsSource
}

/**
 * N orders through the API with the worker(s) already running, each approved by the dev approvers
 * through the approve endpoint right after its 202, until every one is confirmed: the
 * latencies of each step from job_events and the CPU per process over the batch (the paced
 * run below capacity, the profiled run).
 */
export async function runOrderBatch(p: RunOrderBatchParameters): Promise<OrderBatchResult> {
  const meter = startCpuMeter({ groups: p.groups })
  const submitted = await submitOrders({
    poster: p.poster,
    bodies: p.bodies,
    count: p.count,
    mode: p.mode,
    approve: p.approver.approve,
  })
  const ids = submitted.orders.map((o) => o.orderId)
  const waited = await waitForOrders({ sql: p.sql, orderIds: ids, timeoutMs: p.timeoutMs })
  const cpu = meter.stop()
  const timings = await listOrderTimings(p.sql, { orderIds: ids })
  const lastConfirmed = timings.reduce((a, t) => Math.max(a, t.confirmed ?? 0), 0)
  const confirmed = timings.filter((t) => t.confirmed !== null).length
  const seconds = ((lastConfirmed || submitted.lastAnsweredAt) - submitted.firstSentAt) / 1000
  return {
    ...orderLatencies(timings, new Map(submitted.orders.map((o) => [o.orderId, o.sentAt]))),
    mode: p.mode,
    submitted: submitted.orders.length,
    refused: submitted.refused,
    byStatus: waited.byStatus,
    settled: waited.settled,
    intakeSeconds: (submitted.lastAnsweredAt - submitted.firstSentAt) / 1000,
    seconds,
    confirmedPerSecond: seconds > 0 ? confirmed / seconds : 0,
    failures: timings.reduce((a, t) => a + t.failures, 0),
    cpu,
  }
}
