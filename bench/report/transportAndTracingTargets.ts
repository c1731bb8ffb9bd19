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

/** The SQS transport and tracing rows report figures, not thresholds: one 'reported' line each in the Targets table. */
export function transportAndTracingTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  if (r.sqs) {
    const d = r.sqs.drain
    const base = graphileBaseRow(r, d.orders)?.drain
    const cpu = drainCpuPerOrder(d, SQS_STACK_GROUPS)
    const baseCpu = base ? drainCpuPerOrder(base) : undefined
    targets.push({
      name: `SQS transport (QUEUE_TRANSPORT=sqs), drain of ${d.orders}, 1 signer, 1 worker, beside graphile-worker's (reported)`,
      measured:
        `${rate(d.confirmedPerSecond)}/s, ${num(cpu.total, 1)} ms CPU/order (worker ${num(cpu.byGroup.worker ?? NaN, 1)}, postgres ${num(cpu.byGroup.postgres ?? NaN, 1)}, sqs ${num(cpu.byGroup.sqs ?? NaN, 1)})` +
        (base && baseCpu
          ? ` vs graphile-worker ${rate(base.confirmedPerSecond)}/s, ${num(baseCpu.total, 1)} ms (drain of ${base.orders})`
          : ' (no graphile-worker row of 1 signer x 1 worker in this run)'),
      pass: null,
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
