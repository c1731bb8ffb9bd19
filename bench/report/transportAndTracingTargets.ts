import type { BenchResult } from '../BenchResult'
import type { DrainResult } from '../pipeline/runDrain'
import { drainCpuPerOrder, SQS_STACK_GROUPS } from './drainCpu'
import type { TargetResult } from './evaluateTargets'
import { cpuMsPer, num, rate } from './format'

/**
 * The graphile-worker drain the SQS row stands beside: 1 signer, 1 worker process, of the
 * SQS row's size when one has it (section 1's row, or section 7's "tracing off" drain).
 */
export function graphileBaseRow(r: BenchResult, orders?: number): { drain: DrainResult; label: string } | undefined {
  const rows: Array<{ drain: DrainResult; label: string }> = []
  const scaling = r.drains.find((d) => d.signers === 1 && d.workers === 1)
  if (scaling) rows.push({ drain: scaling, label: 'section 1' })
  if (r.tracing) rows.push({ drain: r.tracing.off.drain, label: 'section 7, tracing off' })
  return rows.find((x) => x.drain.orders === orders) ?? rows[0]
}

/** The SQS transport's bounds beside graphile-worker's drain (docs/decisions/065-sqs-batches.md). */
export const SQS_TARGETS = {
  /** CPU per confirmed order of the stack without the SQS endpoint, at most this times graphile-worker's */
  cpuRatio: 1.3,
  /** confirmed per second, at least this times graphile-worker's */
  rateRatio: 0.8,
  /** Postgres statements per confirmed order (pg_stat_statements), at most */
  statementsPerOrder: 5,
} as const

/** Statements Postgres executed per confirmed order of a drain (pg_stat_statements). */
export function statementsPerOrder(d: DrainResult): number {
  return d.statements.calls / Math.max(1, d.byStatus.confirmed ?? 0)
}

/**
 * The SQS transport's targets beside graphile-worker's drain of 1 signer and 1 worker (CPU per order without the
 * local SQS endpoint's, which is reported apart: in production SQS is a remote service; drain rate; statements per
 * order), and the tracing row's figures ('reported': no threshold).
 */
export function transportAndTracingTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  if (r.sqs) {
    const d = r.sqs.drain
    const base = graphileBaseRow(r, d.orders)?.drain
    const cpu = drainCpuPerOrder(d, SQS_STACK_GROUPS)
    const sqsMs = cpu.byGroup.sqs ?? NaN
    const withoutEndpoint = cpu.total - (Number.isFinite(sqsMs) ? sqsMs : 0)
    const baseCpu = base ? drainCpuPerOrder(base) : undefined
    const title = `SQS transport (QUEUE_TRANSPORT=sqs), drain of ${d.orders}, 1 signer, 1 worker`
    const against = base
      ? ` vs graphile-worker's drain of ${base.orders}`
      : ' (no graphile-worker row of 1 signer x 1 worker in this run)'
    const perOrder = (x: number) => num(x / Math.max(1, d.byStatus.confirmed ?? 0), 2)
    const topStatements = (d.statements.mostCalled ?? [])
      .slice(0, 5)
      .map((x) => `${perOrder(x.calls)} calls per order: \`${x.query.slice(0, 100)}\``)
    const cpuPass = baseCpu ? withoutEndpoint <= SQS_TARGETS.cpuRatio * baseCpu.total : null
    const ratePass = base ? d.confirmedPerSecond >= SQS_TARGETS.rateRatio * base.confirmedPerSecond : null
    const statementsPass = statementsPerOrder(d) <= SQS_TARGETS.statementsPerOrder
    const byGroup = (c: ReturnType<typeof drainCpuPerOrder>) =>
      Object.entries(c.byGroup)
        .map(([group, ms]) => `${group} ${num(ms, 1)} ms`)
        .join(', ')
    targets.push({
      name: `${title}: CPU/order without the SQS endpoint at most ${SQS_TARGETS.cpuRatio}x graphile-worker's`,
      measured:
        `${num(withoutEndpoint, 1)} ms (worker ${num(cpu.byGroup.worker ?? NaN, 1)}, postgres ${num(cpu.byGroup.postgres ?? NaN, 1)}; the SQS endpoint's own ${num(sqsMs, 1)} ms apart)` +
        (baseCpu ? ` vs ${num(baseCpu.total, 1)} ms: ${num(withoutEndpoint / baseCpu.total, 2)}x` : '') +
        against,
      pass: cpuPass,
      note:
        cpuPass === false
          ? {
              bound: 'the CPU of each process per confirmed order, SQS beside graphile-worker',
              evidence: [`SQS: ${byGroup(cpu)}`, ...(baseCpu ? [`graphile-worker: ${byGroup(baseCpu)}`] : [])],
            }
          : undefined,
    })
    targets.push({
      name: `${title}: drain rate at least ${SQS_TARGETS.rateRatio}x graphile-worker's`,
      measured:
        `${rate(d.confirmedPerSecond)}/s` +
        (base
          ? ` vs ${rate(base.confirmedPerSecond)}/s: ${num(d.confirmedPerSecond / base.confirmedPerSecond, 2)}x`
          : '') +
        against,
      pass: ratePass,
      note:
        ratePass === false
          ? {
              bound: "the SQS drain's CPU per order and its statements: the same two cores serve both drains",
              evidence: [`SQS: ${byGroup(cpu)}`, `${num(statementsPerOrder(d), 1)} statements per order`],
            }
          : undefined,
    })
    targets.push({
      name: `${title}: Postgres statements per order at most ${SQS_TARGETS.statementsPerOrder}`,
      measured: `${num(statementsPerOrder(d), 1)}${base ? ` (graphile-worker ${num(statementsPerOrder(base), 1)})` : ''}`,
      pass: statementsPass,
      note: statementsPass ? undefined : { bound: "the SQS drain's most frequent statements", evidence: topStatements },
    })
  }
  const t = r.tracing
  if (t) {
    const off = drainCpuPerOrder(t.off.drain)
    const on = drainCpuPerOrder(t.on.drain)
    const web = (x: typeof t.off) => (x.intake ? cpuMsPer(x.intake.cpu, 'web', x.intake.result.ok) : NaN)
    targets.push({
      name: `Tracing off vs on (OTLP export to a local receiver), drain of ${t.orders}, 1 signer, 1 worker, and the intake (reported)`,
      measured:
        `CPU/order ${num(off.total, 1)} -> ${num(on.total, 1)} ms (worker ${num(off.byGroup.worker ?? NaN, 1)} -> ${num(on.byGroup.worker ?? NaN, 1)}); ` +
        `web CPU/request ${num(web(t.off), 2)} -> ${num(web(t.on), 2)} ms`,
      pass: null,
    })
  }
  return targets
}
