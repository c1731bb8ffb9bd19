import type postgres from 'postgres'
import { startOtlpSink } from '../../tests/helpers/startOtlpSink'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import { runHttpLoad } from '../intake/runHttpLoad'
import { type IntakeRun, MINT_PATH, type RunIntakeParameters, runIntake } from '../intake/runIntake'
import type { BenchStack } from '../stack/startBenchStack'
import type { CpuTimeline } from '../system/startCpuTimeline'
import type { OrderApprover } from './createOrderApprover'
import { type DrainResult, runDrain } from './runDrain'

/** One side of the comparison: the drain (worker with or without tracing) and the intake (web likewise). */
export type TracingSide = { drain: DrainResult; intake?: IntakeRun }

export type TracingComparison = {
  orders: number
  off: TracingSide
  on: TracingSide
  /** OTEL_EXPORTER_OTLP_PROTOCOL of the "on" side */
  protocol: string
  /** what the local receiver got during the "on" side (export requests, bytes) */
  exports: { requests: number; bytes: number }
}

export type RunTracingComparisonParameters = {
  stack: BenchStack
  sql: postgres.Sql
  poster: JsonPoster
  approver: OrderApprover
  bodies: MintBodies
  workerSigners: readonly string[]
  orders: number
  submitConcurrency: number
  timeline: CpuTimeline
  /** the intake run's arguments (runIntake), one concurrency; null: no intake part (the web is not restarted) */
  intake: Omit<RunIntakeParameters, 'concurrencies' | 'kinds' | 'label' | 'warmUp'> & { clients: number }
  /** cancels the intake's orders before a drain (their jobs would be drained too) */
  dropQueuedOrders: () => Promise<void>
  log: (line: string) => void
}

const PROTOCOL = 'http/protobuf'

/**
 * The cost of tracing: the same drain (1 signer, 1 worker process) and the same
 * intake run, first with OTEL_EXPORTER_OTLP_ENDPOINT unset, then set to a local OTLP
 * receiver answering 200 (tests/helpers/startOtlpSink, http/protobuf as in production).
 * Tracing is read at process start: the "on" worker is started with the variable, and
 * the web is restarted with it for the intake and the drain's filling, then restarted
 * without it (the runs after this one measure the web untraced). Workers are stopped
 * before and after, as between the scaling table's rows.
 */
export async function runTracingComparison(p: RunTracingComparisonParameters): Promise<TracingComparison> {
  const sink = await startOtlpSink()
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: PROTOCOL }
  const intakeOnce = async (label: string) => {
    const [run] = await runIntake({
      ...p.intake,
      concurrencies: [p.intake.clients],
      kinds: ['api'],
      label,
      warmUp: false,
    })
    await p.dropQueuedOrders()
    return run
  }
  const drain = (startWorker: () => Promise<unknown>) =>
    runDrain({
      sql: p.sql,
      poster: p.poster,
      bodies: p.bodies,
      workerSigners: p.workerSigners,
      signers: 1,
      workers: 1,
      orders: p.orders,
      submitConcurrency: p.submitConcurrency,
      approver: p.approver,
      startWorker,
      stopWorkers: p.stack.stopWorkers,
      timeline: p.timeline,
      timeoutMs: Math.max(120_000, p.orders * 300),
      log: (l) => p.log(`[tracing ${startWorker === p.stack.startWorker ? 'off' : 'on'}] ${l}`),
    })
  // warms a freshly started web (its routes load on first use); its orders are dropped
  const warmWeb = async () => {
    await runHttpLoad({
      session: p.intake.session,
      path: MINT_PATH,
      connections: 8,
      durationSec: 3,
      bodies: p.bodies,
      expectStatus: 202,
    })
    await p.dropQueuedOrders()
  }
  try {
    await p.stack.stopWorkers()
    const off: TracingSide = { intake: await intakeOnce('tracing off'), drain: await drain(p.stack.startWorker) }
    p.log(`tracing on: restarting the web with OTEL_EXPORTER_OTLP_ENDPOINT=${sink.url}`)
    await p.stack.restartWeb(otel)
    await warmWeb()
    const before = sink.received()
    const onIntake = await intakeOnce('tracing on')
    const onDrain = await drain(() => p.stack.startWorker(otel))
    const after = sink.received()
    p.log(
      `tracing on: the receiver got ${after.requests - before.requests} exports (${((after.bytes - before.bytes) / 1024).toFixed(0)} KB)`,
    )
    p.log('tracing off again: restarting the web without it')
    await p.stack.restartWeb()
    await warmWeb()
    return {
      orders: p.orders,
      off,
      on: { intake: onIntake, drain: onDrain },
      protocol: PROTOCOL,
      exports: { requests: after.requests - before.requests, bytes: after.bytes - before.bytes },
    }
  } finally {
    await sink.close()
  }
}
