import type { BenchResult } from '../BenchResult'
import type { DrainResult } from '../pipeline/runDrain'
import type { CpuUsage } from '../system/startCpuMeter'
import { drainCpuPerOrder, STACK_GROUPS } from './drainCpu'
import type { TargetResult } from './evaluateTargets'
import { machineAside, profileLines } from './evidenceLines'
import { cpuLine, cpuMsPer, ms, num, rate, ratio, signersLabel as s } from './format'
import { notificationCost } from './notificationCost'

export const CPU_PER_ORDER_TARGET_MS = 15

/**
 * Section 1's targets, on the 1-worker rows: the fewest signers' rate against the node's raw limit, the most signers'
 * against it and the fewest's, CPU per confirmed order of both; reported beside them, the previous report's CPU per
 * order and the CPU of the notification each order causes.
 */
export function drainTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  const oneWorker = Math.min(...r.options.workerCounts)
  const drainOf = (signers: number) => r.drains.find((d) => d.signers === signers && d.workers === oneWorker)
  const rawOf = (signers: number) => r.raw.find((x) => x.signers === signers)
  const minS = Math.min(...r.options.signerCounts)
  const maxS = Math.max(...r.options.signerCounts)
  const d1 = drainOf(minS)
  const dMax = maxS !== minS ? drainOf(maxS) : undefined

  if (d1) {
    const raw = rawOf(minS)?.perSecond ?? NaN
    const q = ratio(d1.confirmedPerSecond, raw)
    targets.push({
      name: `Drain of ${d1.orders}, ${s(minS)}, ${oneWorker} worker: >= 0.5x the node's raw limit`,
      measured: `${rate(d1.confirmedPerSecond)}/s vs ${rate(raw)}/s = ${num(q, 2)}`,
      pass: q >= 0.5,
      note: q >= 0.5 ? undefined : drainEvidence(r, d1),
    })
  }
  if (d1 && dMax) {
    const raw = rawOf(maxS)?.perSecond ?? NaN
    const vsOne = ratio(dMax.confirmedPerSecond, d1.confirmedPerSecond)
    const vsRaw = ratio(dMax.confirmedPerSecond, raw)
    const pass = vsOne >= 2 || vsRaw >= 0.8
    targets.push({
      name: `Drain of ${dMax.orders}, ${s(maxS)}, ${oneWorker} worker: >= 2x the ${s(minS)} rate or >= 0.8x the raw limit`,
      measured: `${rate(dMax.confirmedPerSecond)}/s = ${num(vsOne, 2)}x the ${s(minS)} rate, ${num(vsRaw, 2)} of the raw limit (${rate(raw)}/s)`,
      pass,
      note: pass ? undefined : drainEvidence(r, dMax),
    })
  }
  for (const d of [d1, dMax]) {
    if (!d) continue
    const cpu = drainCpuPerOrder(d)
    const pass = cpu.total <= CPU_PER_ORDER_TARGET_MS
    targets.push({
      name: `CPU per confirmed order, drain, ${s(d.signers)}: <= ${CPU_PER_ORDER_TARGET_MS} ms (all processes)`,
      measured: `${num(cpu.total, 1)} ms (${STACK_GROUPS.map((g) => `${g} ${num(cpu.byGroup[g] ?? NaN, 1)}`).join(', ')})`,
      pass,
      note: pass ? undefined : cpuEvidence(r, d),
    })
  }
  if (d1 && r.previous) {
    const now = drainCpuPerOrder(d1).total
    targets.push({
      name: `CPU per confirmed order, drain, ${s(d1.signers)}, beside the report this run replaced (approvals verified by web, worker and contract now; reported)`,
      measured: `${num(now, 1)} ms now vs ${r.previous.measured} on ${r.previous.date} (${num(ratio(now, r.previous.ms), 2)}x)`,
      pass: null,
    })
  }
  // the notification each confirmed order causes runs after the drain's window (mint jobs first): its cost, beside
  const nb = notificationCost(r.notifications)
  if (d1 && nb) {
    const mint = drainCpuPerOrder(d1).total
    targets.push({
      name: `CPU per confirmed order with the email it causes (the drain's ${s(d1.signers)} figure + the notifications sent after the runs, section 2; reported)`,
      measured: `${num(mint + nb.total, 1)} ms = ${num(mint, 1)} (mint) + ${num(nb.total, 1)} per notification (${STACK_GROUPS.map((g) => `${g} ${num(nb.msPer[g] ?? 0, 1)}`).join(', ')}; the work that runs whatever the rate included)`,
      pass: null,
    })
  }
  return targets
}

function perOrderLine(cpu: CpuUsage, n: number): string {
  return STACK_GROUPS.map((g) => `${g} ${num(cpuMsPer(cpu, g, n), 1)}`).join(', ')
}

function drainEvidence(r: BenchResult, d: DrainResult): { bound: string; evidence: string[] } {
  const n = d.byStatus.confirmed ?? 0
  const cpu = drainCpuPerOrder(d)
  const loop = (d.cpu.byGroup['worker main thread'] ?? NaN) / Math.max(1, d.workers)
  const raw = r.raw.find((x) => x.signers === d.signers) ?? r.raw[0]
  const machineCeiling = (1000 * d.cpu.cores) / Math.max(cpu.total, 1e-9)
  let bound: string
  if (d.cpu.machineBusy >= 0.9 * d.cpu.cores) {
    bound = `the machine's ${d.cpu.cores} cores (${num(d.cpu.machineBusy, 2)} busy during the drain): at ${num(cpu.total, 1)} ms of CPU per confirmed order (${perOrderLine(d.cpu, n)}) they carry at most ~${rate(machineCeiling)} orders/s, whoever else runs.`
  } else if (loop >= 0.85) {
    bound = `the worker's event loop: ${num(loop, 2)} of a core per process (${d.workers} process(es)), ${num(cpuMsPer(d.cpu, 'worker main thread', n), 1)} ms per order on it.`
  } else {
    bound = `no process saturated a core (machine ${num(d.cpu.machineBusy, 2)} of ${d.cpu.cores}, worker's event loop ${num(loop, 2)} per process): the orders waited, on the steps below (blocks, polls, locks), not on CPU.`
  }
  const evidence = [
    `CPU during the drain (cores): ${cpuLine(d.cpu)}. Per confirmed order: ${perOrderLine(d.cpu, n)} ms.`,
    `Steps during the drain (p50 / p99 ms): ${d.latencies.stages.map((x) => `${x.name} ${ms(x.summary.p50)} / ${ms(x.summary.p99)}`).join('; ')}.`,
    `Worker slot time over the drain: ${d.busy.map((t) => `${t.task} ${num(t.busyMs / 1000, 1)} s in ${t.runs} runs`).join(', ') || 'none recorded'}.`,
    ...(raw
      ? [
          `The node: ${raw.txs} pre-signed mints accepted in ${num(raw.sendSeconds, 2)} s and included in ${raw.blocks} blocks (${raw.gasPerTx} gas each, ${raw.txsPerBlockByGas} per ${raw.blockGasLimit}-gas block).`,
        ]
      : []),
    ...(d.settled ? [] : [`Not every order settled within the time allowed: ${JSON.stringify(d.byStatus)}.`]),
  ]
  return { bound: bound + machineAside(d.cpu), evidence }
}

function cpuEvidence(r: BenchResult, d: DrainResult): { bound: string; evidence: string[] } {
  const n = d.byStatus.confirmed ?? 0
  const cpu = drainCpuPerOrder(d)
  const top = Object.entries(cpu.byGroup).sort((a, b) => b[1] - a[1])
  const statements = d.statements.top
    .slice(0, 4)
    .map(
      (x) =>
        `${num(x.totalMs / Math.max(1, n), 2)} ms/order in ${num(x.calls / Math.max(1, n), 1)} calls/order: \`${x.query.slice(0, 110)}\``,
    )
  return {
    bound: `the sum over the stack's processes, largest first: ${top.map(([g, v]) => `${g} ${num(v, 1)} ms`).join(', ')} per confirmed order.`,
    evidence: [
      `The worker's event loop (JavaScript) ${num(cpuMsPer(d.cpu, 'worker main thread', n), 1)} ms of its ${num(cpu.byGroup.worker ?? NaN, 1)} ms per order (the rest: libuv's and V8's helper threads: GC, crypto, DNS).`,
      `Postgres executed ${num(d.statements.calls / Math.max(1, n), 1)} statements per order, ${num(d.statements.totalMs / Math.max(1, n), 2)} ms of execution per order (pg_stat_statements); the rest of its CPU is protocol, parsing, commits. Top statements: ${statements.join('; ') || 'none'}.`,
      ...profileLines('Worker', r.profiles.worker),
    ],
  }
}
