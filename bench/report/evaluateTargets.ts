import type { IntakeRun } from '../intake/runIntake'
import type { DrainResult } from '../pipeline/runDrain'
import type { CpuProfileSummary, ProcessMemoryStats } from '../profile/summarizeCpuProfile'
import type { BenchResult, FloorRun, PacedRun } from '../runBench'
import type { CpuUsage } from '../system/startCpuMeter'
import { drainCpuPerOrder, STACK_GROUPS } from './drainCpu'
import { cpuLine, cpuMsPer, mb, ms, num, rate, ratio } from './format'
import { notificationCost } from './notificationCost'
import { transportAndTracingTargets } from './transportAndTracingTargets'

export type TargetResult = {
  name: string
  measured: string
  /** null: a figure the issue asks to report, with no threshold of its own */
  pass: boolean | null
  /** for a miss: what bounds it, then the measurements that show it */
  note?: { bound: string; evidence: string[] }
}

export { drainCpuPerOrder, SQS_STACK_GROUPS, STACK_GROUPS } from './drainCpu'

export const CPU_PER_ORDER_TARGET_MS = 15
export const WORKER_RSS_TARGET_MB = 150
export const WEB_RSS_TARGET_MB = 300

/** The issue's targets against this run, each with PASS/MISS and, for a miss, its evidence. */
export function evaluateTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  const oneWorker = Math.min(...r.options.workerCounts)
  const drainOf = (signers: number) => r.drains.find((d) => d.signers === signers && d.workers === oneWorker)
  const rawOf = (signers: number) => r.raw.find((x) => x.signers === signers)
  const minS = Math.min(...r.options.signerCounts)
  const maxS = Math.max(...r.options.signerCounts)
  const d1 = drainOf(minS)
  const dMax = maxS !== minS ? drainOf(maxS) : undefined
  const s = (n: number) => `${n} signer${n > 1 ? 's' : ''}`

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

  const p = r.paced
  if (p) {
    const label = `Under capacity (${p.perSecond}/s = half of ${rate(p.capacity)}/s)`
    const c2b = p.committedToBroadcast
    const note = pacedEvidence(p, r.floor)
    targets.push({
      name: `${label}: committed -> broadcast p50 <= 25 ms`,
      measured: `p50 ${ms(c2b.p50)} ms`,
      pass: c2b.p50 <= 25,
      note: c2b.p50 <= 25 ? undefined : note,
    })
    targets.push({
      name: `${label}: committed -> broadcast p99 <= 100 ms`,
      measured: `p99 ${ms(c2b.p99)} ms`,
      pass: c2b.p99 <= 100,
      note: c2b.p99 <= 100 ? undefined : note,
    })
    const limit = r.options.blockTime * 1000 + r.worker.confirmPollMs
    const b2c = p.broadcastToConfirmed
    targets.push({
      name: `${label}: broadcast -> confirmed within one block + one poll (${limit} ms), p99`,
      measured: `p50 ${ms(b2c.p50)} ms, p99 ${ms(b2c.p99)} ms`,
      pass: b2c.p99 <= limit,
      note: b2c.p99 <= limit ? undefined : note,
    })
  }

  const c = Math.max(...r.options.concurrencies)
  const intakePair = (runs: IntakeRun[]) => ({
    api: runs.find((x) => x.kind === 'api' && x.clients === c),
    sql: runs.find((x) => x.kind === 'sql' && x.clients === c),
  })
  const idle = intakePair(r.intake.idle)
  if (idle.api && idle.sql) {
    const q = ratio(idle.api.result.perSecond, idle.sql.result.perSecond)
    targets.push({
      name: `Intake at ${c} clients, worker idle: >= 0.5x the raw-SQL rate`,
      measured: `${rate(idle.api.result.perSecond)}/s vs ${rate(idle.sql.result.perSecond)}/s = ${num(q, 2)}`,
      pass: q >= 0.5,
      note:
        q >= 0.5
          ? undefined
          : intakeEvidence(
              r,
              idle.api,
              idle.sql,
              r.intake.idle.find((x) => x.kind === 'floor' && x.clients === c),
            ),
    })
  }
  const beside = intakePair(r.intake.beside)
  if (beside.api && beside.sql) {
    targets.push({
      name: `Intake at ${c} clients, worker running beside it (reported, same pair)`,
      measured: `${rate(beside.api.result.perSecond)}/s vs ${rate(beside.sql.result.perSecond)}/s = ${num(ratio(beside.api.result.perSecond, beside.sql.result.perSecond), 2)}`,
      pass: null,
    })
  }

  const memTarget = (group: 'worker' | 'web', limitMb: number, shipped: string) => {
    const m = r.memory[group]
    if (!m) return
    const peakMb = m.peakProcessKb / 1024
    const pass = peakMb < limitMb
    targets.push({
      name: `${group === 'web' ? 'Web' : 'Worker'} peak RSS < ${limitMb} MB, as shipped (${shipped})`,
      measured: `${mb(m.peakProcessKb)} (VmHWM of the largest process)`,
      pass,
      note: pass
        ? undefined
        : {
            bound: memoryBound(group, m.peakProcessKb, r.profiles[group]?.memory),
            evidence: [
              ...m.processes.map(
                (x) => `pid ${x.pid}: VmHWM ${mb(x.hwmKb)}, VmRSS at the end ${mb(x.rssKb)}: ${x.cmd.slice(0, 160)}`,
              ),
              ...heapLines(group, r.profiles[group]?.memory),
            ],
          },
    })
  }
  memTarget('worker', WORKER_RSS_TARGET_MB, `${r.release.workerEnv ? `${r.release.workerEnv} ` : ''}node worker.mjs`)
  memTarget('web', WEB_RSS_TARGET_MB, `${r.release.webEnv ? `${r.release.webEnv} ` : ''}node server.js`)
  targets.push(...transportAndTracingTargets(r))
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

function pacedEvidence(p: PacedRun, floor: FloorRun | undefined): { bound: string; evidence: string[] } {
  const steps = p.stages.filter((x) => !x.name.startsWith('request sent') && !x.name.startsWith('broadcast ->'))
  const top = [...steps].sort((a, b) => b.summary.p50 - a.summary.p50).slice(0, 3)
  const floorLine = floor
    ? [
        `The floor, the same path at ${floor.perSecond}/s, each order a batch of its own and no order waiting for another: committed -> broadcast p50 ${ms(floor.committedToBroadcast.p50)} ms, p99 ${ms(floor.committedToBroadcast.p99)} ms ` +
          `(machine ${num(floor.cpu.machineBusy, 2)} of 2 cores busy; the worker's event loop ${num(cpuMsPer(floor.cpu, 'worker main thread', Math.max(1, floor.submitted)), 1)} ms of CPU per order there, the work that runs whatever the rate included, against ${num(cpuMsPer(p.cpu, 'worker main thread', Math.max(1, p.submitted)), 1)} ms at ${p.perSecond}/s).`,
      ]
    : []
  return {
    bound: `the steps in series; the largest medians: ${top.map((x) => `${x.name} ${ms(x.summary.p50)} ms`).join('; ')}.`,
    evidence: [
      ...floorLine,
      ...p.stages.map((x) => `${x.name}: p50 ${ms(x.summary.p50)} ms, p99 ${ms(x.summary.p99)} ms`),
      `CPU over the paced run (cores): ${cpuLine(p.cpu)}.`,
    ],
  }
}

function intakeEvidence(
  r: BenchResult,
  api: IntakeRun,
  sql: IntakeRun,
  floor: IntakeRun | undefined,
): { bound: string; evidence: string[] } {
  const c = api.clients
  const webMs = cpuMsPer(api.cpu, 'web', api.result.ok)
  const loopMs = cpuMsPer(api.cpu, 'web main thread', api.result.ok)
  const apiPgMs = cpuMsPer(api.cpu, 'postgres', api.result.ok)
  const apiGenMs = cpuMsPer(api.cpu, 'bench', api.result.ok)
  const sqlPgMs = cpuMsPer(sql.cpu, 'postgres', sql.result.ok)
  const sqlClientMs = cpuMsPer(sql.cpu, 'bench', sql.result.ok)
  const apiCost = webMs + apiPgMs + apiGenMs
  const sqlCost = sqlPgMs + sqlClientMs
  const loop = api.cpu.byGroup['web main thread'] ?? 0
  return {
    bound:
      `CPU per order: through the API ${num(apiCost, 2)} ms (web ${num(webMs, 2)}, of it ${num(loopMs, 2)} on its event loop; Postgres ${num(apiPgMs, 2)}; load generator ${num(apiGenMs, 2)}) against ${num(sqlCost, 2)} ms over raw SQL (Postgres ${num(sqlPgMs, 2)}, client ${num(sqlClientMs, 2)}): ` +
      `on the same ${api.cpu.cores} cores that caps the intake at ~${num(sqlCost / apiCost, 2)} of the raw-SQL rate; the web's event loop was busy ${num(loop * 100, 0)}% (one loop cannot pass ~${rate(1000 / loopMs)}/s).` +
      machineAside(api.cpu),
    evidence: [
      `CPU during the API run at ${c} clients (cores): ${cpuLine(api.cpu)}.`,
      `CPU during the raw-SQL run at ${c} clients (cores): ${cpuLine(sql.cpu)}.`,
      `Postgres execution per accepted order (pg_stat_statements): ${num(api.statements.totalMs / Math.max(1, api.result.ok), 2)} ms in ${num(api.statements.calls / Math.max(1, api.result.ok), 1)} statements through the API, ${num(sql.statements.totalMs / Math.max(1, sql.result.ok), 2)} ms over raw SQL.`,
      ...(floor
        ? [
            `The framework's floor (session, role and origin checks, then 415) at ${c} clients: ${rate(floor.result.perSecond)}/s, ${num(cpuMsPer(floor.cpu, 'web', floor.result.ok), 2)} ms of web CPU per request.`,
          ]
        : []),
      ...profileLines('Web', r.profiles.web),
    ],
  }
}

function memoryBound(group: string, peakKb: number, m: ProcessMemoryStats | undefined): string {
  const head = `the ${group} process itself, whose resident set peaked at ${mb(peakKb)} (VmHWM)`
  if (!m) return `${head}.`
  const outside = m.rss - m.heapTotal - m.external
  return (
    `${head}. After its profiled batch its RSS was ${num(m.rss, 0)} MB: V8's heap ${num(m.heapTotal, 0)} MB reserved (${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB still live after a full collection), ` +
    `${num(outside, 0)} MB outside V8's heap (the Node.js binary, native libraries, compiled code), ${num(m.external, 0)} MB of external buffers.`
  )
}

function heapLines(group: string, m: ProcessMemoryStats | undefined): string[] {
  if (!m) return []
  return [
    `Inside the ${group} process (process.memoryUsage() right after its profiled run, then after a forced full GC): RSS ${num(m.rss, 0)} MB; heap ${num(m.heapTotal, 0)} MB reserved, ${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB live. Heap spaces after the GC (reserved / used MB): ${m.spaces.map((sp) => `${sp.name} ${num(sp.size, 0)} / ${num(sp.used, 0)}`).join(', ')}.`,
  ]
}

function profileLines(label: string, profile: CpuProfileSummary | undefined): string[] {
  if (!profile) return []
  const areas = profile.byArea
    .slice(0, 6)
    .map((a) => `${a.name} ${num(a.percent, 0)}%`)
    .join(', ')
  const fns = profile.topFunctions
    .slice(0, 5)
    .map((f) => `${f.name} ${num(f.percent, 1)}%`)
    .join('; ')
  return [
    `${label} CPU profile (${num(profile.seconds, 0)} s, ${num(profile.busyPercent, 0)}% of samples busy), busy time by area: ${areas}.`,
    `Top functions by self time: ${fns}.`,
  ]
}

/** When other work took a real share of a saturated machine, the reader must know. */
function machineAside(cpu: { machineBusy: number; cores: number; others: number }): string {
  if (cpu.machineBusy < 0.9 * cpu.cores || cpu.others < 0.25) return ''
  return ` The machine was saturated too (${num(cpu.machineBusy, 2)} of ${cpu.cores} cores busy), ${num(cpu.others, 2)} cores of it by work outside the bench (others' tests).`
}
