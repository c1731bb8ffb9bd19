import type { IntakeRun } from '../intake/runIntake'
import type { OrderBatchResult } from '../pipeline/runOrderBatch'
import type { PipelineRun } from '../pipeline/runPipeline'
import type { CpuProfileSummary, ProcessMemoryStats } from '../profile/summarizeCpuProfile'
import type { BenchResult } from '../runBench'
import { cpuLine, cpuMsPer, mb, ms, num, rate, ratio } from './format'

export type TargetResult = {
  name: string
  measured: string
  pass: boolean
  /** for a miss: what bounds it, then the measurements that show it */
  note?: { bound: string; evidence: string[] }
}

/** The issue's targets against this run, each with PASS/MISS and, for a miss, its evidence. */
export function evaluateTargets(r: BenchResult): TargetResult[] {
  const targets: TargetResult[] = []
  const c = Math.max(...r.options.concurrencies)
  const run = (kind: IntakeRun['kind']) => r.intake.runs.find((x) => x.kind === kind && x.clients === c)
  const api = run('api')
  const sql = run('sql')
  const floor = run('floor')
  if (api && sql && floor) {
    const q = ratio(api.result.perSecond, sql.result.perSecond)
    const intakeNote = intakeEvidence(r, { api, sql, floor, unprepared: run('sql_unprepared') })
    targets.push({
      name: `Intake >= 1/2 the raw-SQL rate at ${c} clients`,
      measured: `${rate(api.result.perSecond)}/s vs ${rate(sql.result.perSecond)}/s = ${num(q, 2)}`,
      pass: q >= 0.5,
      note: q >= 0.5 ? undefined : intakeNote,
    })
    targets.push({
      name: `Intake p99 < 50 ms at ${c} clients`,
      measured: `p99 ${ms(api.result.latency.p99)} ms (p50 ${ms(api.result.latency.p50)} ms)`,
      pass: api.result.latency.p99 < 50,
      note: api.result.latency.p99 < 50 ? undefined : intakeNote,
    })
  }

  for (const p of r.pipeline) {
    const cps = p.burst.confirmedPerSecond
    const vsSeq = ratio(cps, p.sequential.perSecond)
    const vsRaw = ratio(cps, p.raw.perSecond)
    const note = pipelineEvidence(r, p)
    targets.push({
      name: `Pipeline >= 10x the sequential loop (${p.signers} signer${p.signers > 1 ? 's' : ''})`,
      measured: `${rate(cps)}/s vs ${rate(p.sequential.perSecond)}/s = ${num(vsSeq, 1)}x`,
      pass: vsSeq >= 10,
      note: vsSeq >= 10 ? undefined : note,
    })
    targets.push({
      name: `Pipeline >= 1/2 the node's raw limit (${p.signers} signer${p.signers > 1 ? 's' : ''})`,
      measured: `${rate(cps)}/s vs ${rate(p.raw.perSecond)}/s = ${num(vsRaw, 2)}`,
      pass: vsRaw >= 0.5,
      note: vsRaw >= 0.5 ? undefined : note,
    })
  }
  for (const p of r.pipeline) {
    const paced = p.paced.toBroadcast.p50
    targets.push({
      name: `Broadcast p50 within 25 ms of the request, paced ${p.paced.mode.kind === 'paced' ? p.paced.mode.perSecond : ''}/s (${p.signers} signer${p.signers > 1 ? 's' : ''})`,
      measured: `enqueued -> broadcast p50 ${ms(paced)} ms`,
      pass: paced <= 25,
      note: paced <= 25 ? undefined : latencyEvidence(p.paced),
    })
  }
  for (const p of r.pipeline) {
    const burst = p.burst.toBroadcast.p50
    targets.push({
      name: `Broadcast p50 within 25 ms of the request, burst of ${p.burst.submitted} (${p.signers} signer${p.signers > 1 ? 's' : ''})`,
      measured: `enqueued -> broadcast p50 ${ms(burst)} ms`,
      pass: burst <= 25,
      note: burst <= 25 ? undefined : backlogEvidence(p.burst),
    })
  }

  const memTarget = (group: 'worker' | 'web', limitMb: number) => {
    const m = r.memory[group]
    if (!m) return
    const peakMb = m.peakProcessKb / 1024
    targets.push({
      name: `${group === 'web' ? 'Web' : 'Worker'} peak RSS < ${limitMb} MB`,
      measured: `${mb(m.peakProcessKb)} (VmHWM of the busiest process; whole tree ${mb(m.peakTreeKb)})`,
      pass: peakMb < limitMb,
      note:
        peakMb < limitMb
          ? undefined
          : {
              bound: memoryBound(group, m.peakProcessKb, r.profiles[group]?.memory),
              evidence: [
                ...m.processes.map((p) => `pid ${p.pid}: VmHWM ${mb(p.hwmKb)}, VmRSS at the end ${mb(p.rssKb)}: ${p.cmd.slice(0, 160)}`),
                ...heapLines(group, r.profiles[group]?.memory),
              ],
            },
    })
  }
  memTarget('worker', 200)
  memTarget('web', 400)
  return targets
}

function memoryBound(group: string, peakKb: number, m: ProcessMemoryStats | undefined): string {
  const head = `the ${group} process itself, whose resident set peaked at ${mb(peakKb)} (VmHWM)`
  if (!m) return `${head}.`
  const outside = m.rss - m.heapTotal - m.external
  const parts = [
    `V8's heap ${num(m.heapTotal, 0)} MB reserved (${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB still live after a full collection)`,
    `${num(outside, 0)} MB outside V8's heap (the Node.js binary, native libraries, compiled code)`,
    `${num(m.external, 0)} MB of external buffers`,
  ]
  return `${head}. At the end of the profiled burst its RSS was ${num(m.rss, 0)} MB: ${parts.join(', ')}.`
}

function heapLines(group: string, m: ProcessMemoryStats | undefined): string[] {
  if (!m) return []
  return [
    `Inside the ${group} process (process.memoryUsage() right after its profiled run, then after a forced full GC): RSS ${num(m.rss, 0)} MB; heap ${num(m.heapTotal, 0)} MB reserved, ${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB live. Heap spaces after the GC (reserved / used MB): ${m.spaces.map((sp) => `${sp.name} ${num(sp.size, 0)} / ${num(sp.used, 0)}`).join(', ')}.`,
  ]
}

function profileLines(label: string, profile: CpuProfileSummary | undefined): string[] {
  if (!profile) return []
  const areas = profile.byArea.slice(0, 6).map((a) => `${a.name} ${num(a.percent, 0)}%`).join(', ')
  const fns = profile.topFunctions.slice(0, 5).map((f) => `${f.name} ${num(f.percent, 1)}%`).join('; ')
  return [
    `${label} CPU profile (${num(profile.seconds, 0)} s, ${num(profile.busyPercent, 0)}% of samples busy), busy time by area: ${areas}.`,
    `Top functions by self time: ${fns}.`,
  ]
}

function intakeEvidence(
  r: BenchResult,
  { api, sql, floor, unprepared }: { api: IntakeRun; sql: IntakeRun; floor: IntakeRun; unprepared?: IntakeRun },
): { bound: string; evidence: string[] } {
  const c = api.clients
  const cores = api.cpu.cores
  const dbPerOrderApi = api.statements.totalMs / Math.max(1, api.result.ok)
  const dbPerOrderSql = sql.statements.totalMs / Math.max(1, sql.result.ok)
  // CPU per request: what each process spends on one order, whatever else the machine does
  const webMs = cpuMsPer(api.cpu, 'web', api.result.ok)
  const apiPgMs = cpuMsPer(api.cpu, 'postgres', api.result.ok)
  const apiGenMs = cpuMsPer(api.cpu, 'bench', api.result.ok)
  const sqlPgMs = cpuMsPer(sql.cpu, 'postgres', sql.result.ok)
  const sqlClientMs = cpuMsPer(sql.cpu, 'bench', sql.result.ok)
  const floorWebMs = cpuMsPer(floor.cpu, 'web', floor.result.ok)
  // JavaScript runs on the main thread; libuv's pool (WebCrypto, ...) is counted in webMs but not here
  const loopMs = cpuMsPer(api.cpu, 'web main thread', api.result.ok)
  const loop = api.cpu.byGroup['web main thread'] ?? 0
  const webCeiling = 1000 / loopMs
  const apiMachineCeiling = (1000 * cores) / (webMs + apiPgMs + apiGenMs)
  const sqlMachineCeiling = (1000 * cores) / (sqlPgMs + sqlClientMs)
  const evidence = [
    `CPU per accepted order at ${c} clients: through the API the web spent ${num(webMs, 2)} ms and Postgres ${num(apiPgMs, 2)} ms (load generator ${num(apiGenMs, 2)} ms); over raw SQL Postgres spent ${num(sqlPgMs, 2)} ms and the client ${num(sqlClientMs, 2)} ms. The floor costs the web ${num(floorWebMs, 2)} ms per request: the session check (next-auth decrypts and re-issues the JWT cookie), the route wrapper's checks and Next's request handling alone.`,
    `Ceilings from those costs: the web runs the route's JavaScript on one event loop, whose thread was busy ${num(loopMs, 2)} ms per order (${num(loop, 2)} cores in this run; the rest of the web's ${num(webMs, 2)} ms ran in libuv's thread pool), so it cannot pass ~${rate(webCeiling)}/s; the machine's ${cores} cores allow ~${rate(apiMachineCeiling)}/s for the API path and ~${rate(sqlMachineCeiling)}/s for raw SQL.`,
    `CPU during the API run at ${c} clients (cores): ${cpuLine(api.cpu)}.`,
    `CPU during the raw-SQL run at ${c} clients (cores): ${cpuLine(sql.cpu)}.`,
    `Postgres execution time per accepted order (pg_stat_statements): ${num(dbPerOrderApi, 2)} ms through the API (${num(api.statements.calls / Math.max(1, api.result.ok), 1)} statements), ${num(dbPerOrderSql, 2)} ms over raw SQL; the API's median request took ${ms(api.result.latency.p50)} ms.`,
    `The framework's floor (session, role and origin checks, then 415: no body read, no database) at ${c} clients: ${rate(floor.result.perSecond)}/s, p50 ${ms(floor.result.latency.p50)} ms, p99 ${ms(floor.result.latency.p99)} ms; the intake reaches ${num(ratio(api.result.perSecond, floor.result.perSecond) * 100, 0)}% of it.`,
    `With ${c} clients each waiting for its answer, latency = ${c} / throughput (Little's law): p99 < 50 ms at ${c} clients needs well over ${num((c * 1000) / 50, 0)}/s, more than the floor's own ${rate(floor.result.perSecond)}/s on this machine.`,
    ...(unprepared
      ? [
          `The same raw SQL sent as Drizzle sends it (unnamed statements: parse + describe on every execution): ${rate(unprepared.result.perSecond)}/s, p99 ${ms(unprepared.result.latency.p99)} ms, vs ${rate(sql.result.perSecond)}/s prepared; Postgres CPU ${num(cpuMsPer(unprepared.cpu, 'postgres', unprepared.result.ok), 2)} ms per order vs ${num(sqlPgMs, 2)} ms.`,
        ]
      : []),
    ...profileLines('Web', r.profiles.web),
  ]
  const apiCost = webMs + apiPgMs + apiGenMs
  const sqlCost = sqlPgMs + sqlClientMs
  const costs = `one order through the API costs ${num(apiCost, 2)} ms of CPU (web ${num(webMs, 2)}, of it ${num(loopMs, 2)} on its event loop; Postgres ${num(apiPgMs, 2)}; load generator ${num(apiGenMs, 2)}) against ${num(sqlCost, 2)} ms over raw SQL (Postgres ${num(sqlPgMs, 2)}, client ${num(sqlClientMs, 2)})`
  const loopState = loop >= 0.85 ? 'saturated' : `busy ${num(loop * 100, 0)}% of the run`
  const bound =
    `CPU per order: ${costs}; on the same ${cores} cores that caps the intake at ~${num(sqlCost / apiCost, 2)} of the raw-SQL rate. ` +
    `The web's part is the largest, and ${num(loopMs, 2)} ms of it run on its single event loop, so one web process cannot pass ~${rate(webCeiling)}/s (here it was ${loopState}). ` +
    `Postgres executes the intake's own statements in ${num(dbPerOrderApi, 2)} ms per order; the floor alone costs the web ${num(floorWebMs, 2)} ms per request, and the web's profile below shows where the rest goes.`
  return { bound: bound + machineAside(api.cpu), evidence }
}

function pipelineEvidence(r: BenchResult, p: PipelineRun): { bound: string; evidence: string[] } {
  const b = p.burst
  const k = p.signers
  const sign = b.stages.find((x) => x.name.startsWith('signing transaction'))?.summary
  // a signer signs one order at a time: the interval between its consecutive signing commits
  const signingBound = b.signInterval.p50 > 0 ? (k * 1000) / b.signInterval.p50 : NaN
  const workerCores = b.cpu.byGroup.worker ?? 0
  // JavaScript runs on each process's main thread: that is what saturates first
  const perProcess = (b.cpu.byGroup['worker main thread'] ?? workerCores) / Math.max(1, r.worker.processes)
  const slots = r.worker.processes * r.worker.concurrency
  const busyMs = b.busy.reduce((a, t) => a + t.busyMs, 0)
  const slotUse = busyMs / (b.seconds * 1000 * slots)
  const sendBusy = b.busy.find((t) => t.task === 'mint_send')?.busyMs ?? 0
  const busy = b.busy.map((t) => `${t.task} ${num(t.busyMs / 1000, 1)} s in ${t.runs} runs (p50 ${ms(t.p50Ms)} ms)`).join(', ')
  const rawBound = p.raw.txsPerBlockByGas > 0 ? p.raw.txsPerBlockByGas / r.options.blockTime : NaN
  const n = b.byStatus.confirmed ?? 0
  const evidence = [
    `CPU during the burst (cores): ${cpuLine(b.cpu)}. Per confirmed order: worker ${num(cpuMsPer(b.cpu, 'worker', n), 1)} ms, Postgres ${num(cpuMsPer(b.cpu, 'postgres', n), 1)} ms, web ${num(cpuMsPer(b.cpu, 'web', n), 1)} ms, anvil ${num(cpuMsPer(b.cpu, 'anvil', n), 1)} ms, KMS ${num(cpuMsPer(b.cpu, 'kms', n), 1)} ms. The worker's event loop (main thread) was busy ${num(b.cpu.byGroup['worker main thread'] ?? NaN, 2)} cores, ${num(cpuMsPer(b.cpu, 'worker main thread', n), 1)} ms per order: on CPU alone one worker process could carry ~${rate(1000 / cpuMsPer(b.cpu, 'worker main thread', n))}/s.`,
    `Worker slots (${r.worker.processes} process(es) x ${r.worker.concurrency}) over the burst's ${num(b.seconds, 1)} s were busy ${num(slotUse * 100, 0)}% of the time: ${busy}. Of mint_send's ${num(sendBusy / 1000, 1)} s, ${num(b.signTxnMs / 1000, 1)} s were inside signing transactions. mint_confirm ran ${num(b.confirmRunsPerOrder, 1)} times per confirmed order (CONFIRM_POLL_MS ${r.worker.confirmPollMs}).`,
    `Signing is one order at a time per signer (its nonce row stays locked from the nonce through KMS Sign to the commit): consecutive signing commits of one signer came ${ms(b.signInterval.p50)} ms apart (p50; p99 ${ms(b.signInterval.p99)} ms), i.e. ~${rate(signingBound)} orders/s for ${k} signer(s). A signing transaction took ${ms(sign?.p50 ?? NaN)} ms (p50; p99 ${ms(sign?.p99 ?? NaN)} ms) from BEGIN to COMMIT, the difference being the wait for the signer's row while the worker slot is held.`,
    confirmQueueLine(b, p.paced),
    `The node's limit: ${p.raw.txs} pre-signed mints were accepted in ${num(p.raw.sendSeconds, 2)} s and included in ${p.raw.blocks} blocks; a mint uses ${p.raw.gasPerTx} gas, so a ${p.raw.blockGasLimit} gas block holds ${p.raw.txsPerBlockByGas}: ~${rate(rawBound)} mints/s at one block per ${r.options.blockTime} s.`,
    ...profileLines(`Worker (burst of ${r.profiles.workerBatch?.submitted ?? '?'} orders, ${Math.max(...r.options.signerCounts)} signers)`, r.profiles.worker),
  ]
  const confirmedCount = b.byStatus.confirmed ?? 0
  const sendPerOrder = sendBusy / Math.max(1, confirmedCount)
  const confirmPerOrder = (b.busy.find((t) => t.task === 'mint_confirm')?.busyMs ?? 0) / Math.max(1, confirmedCount)
  const signTxnPerOrder = b.signTxnMs / Math.max(1, confirmedCount)
  // what the slots can carry when each order needs that much slot time
  const slotBound = (slots * 1000) / Math.max(1e-9, sendPerOrder + confirmPerOrder)
  let bound: string
  if (perProcess >= 0.85) {
    bound = `the worker's CPU: its event loop(s) were busy ${num(perProcess * r.worker.processes, 2)} cores (${num(workerCores, 2)} with helper threads) over ${r.worker.processes} process(es) (one event loop each) for ${rate(b.confirmedPerSecond)} mints/s; the profile below shows where it goes.`
  } else if (b.confirmedPerSecond >= 0.75 * slotBound || slotUse >= 0.85) {
    bound = `the worker's ${slots} slots (WORKER_CONCURRENCY), held far longer than the work needs (its event loop spent ${ms(cpuMsPer(b.cpu, 'worker main thread', n))} ms of CPU per order): each order kept a slot ${ms(sendPerOrder)} ms in mint_send, ${ms(signTxnPerOrder)} ms of it inside the signing transaction (where it waits for the signer's row: signing is serial per signer, ~${rate(signingBound)}/s with ${k}), and ${ms(confirmPerOrder)} ms in mint_confirm. ${slots} slots / ${ms(sendPerOrder + confirmPerOrder)} ms = ~${rate(slotBound)} orders/s at most; the slots were busy ${num(slotUse * 100, 0)}% and the pipeline reached ${rate(b.confirmedPerSecond)}/s, while the worker's event loop was busy only ${num(perProcess, 2)} of a core.`
  } else if (Number.isFinite(signingBound) && b.confirmedPerSecond >= 0.8 * signingBound) {
    bound = `signing, serialised per signer: each signer's nonce row stays locked across its KMS Sign (docs/decisions/007), one order after the other ${ms(b.signInterval.p50)} ms apart, so ${k} signer(s) sign at most ~${rate(signingBound)}/s; the pipeline reached ${rate(b.confirmedPerSecond)}/s.`
  } else if (b.cpu.machineBusy >= 0.9 * b.cpu.cores) {
    bound = `the machine's ${b.cpu.cores} cores: ${num(b.cpu.machineBusy, 2)} busy, shared by worker (${num(workerCores, 2)}), Postgres (${num(b.cpu.byGroup.postgres ?? 0, 2)}), web (${num(b.cpu.byGroup.web ?? 0, 2)}), anvil (${num(b.cpu.byGroup.anvil ?? 0, 2)}), KMS (${num(b.cpu.byGroup.kms ?? 0, 2)}) and others (${num(b.cpu.others, 2)}).`
  } else {
    bound = `no single process saturated a core (worker ${num(workerCores, 2)}, machine ${num(b.cpu.machineBusy, 2)} of ${b.cpu.cores}) and the slots were busy ${num(slotUse * 100, 0)}%: orders waited on the signer locks and the confirmation polls measured below.`
  }
  return { bound: bound + (bound.startsWith('the machine') ? '' : machineAside(b.cpu)), evidence }
}

function confirmQueueLine(burst: OrderBatchResult, paced: OrderBatchResult): string {
  const wait = (x: OrderBatchResult) => x.stages.find((s) => s.name.startsWith('broadcast -> mint_confirm'))?.summary.p50 ?? NaN
  return `A mint_confirm job is added with the broadcast, to run at once, but waited p50 ${ms(wait(burst))} ms for a slot during the burst (${ms(wait(paced))} ms paced): graphile-worker takes jobs in run_at order (getJobs.js: order by priority, run_at), so the first orders' confirmations queue behind every older mint_send of the burst, and orders confirm at the pace mint_send drains.`
}

/** When other work took a real share of a saturated machine, the reader must know. */
function machineAside(cpu: { machineBusy: number; cores: number; others: number }): string {
  if (cpu.machineBusy < 0.9 * cpu.cores || cpu.others < 0.25) return ''
  return ` The machine was saturated too (${num(cpu.machineBusy, 2)} of ${cpu.cores} cores busy), ${num(cpu.others, 2)} cores of it by work outside the bench (others' tests).`
}

function latencyEvidence(b: OrderBatchResult): { bound: string; evidence: string[] } {
  // the steps from the intake's transaction to the broadcast
  const steps = b.stages.filter((s) => !s.name.startsWith('request sent') && !s.name.startsWith('broadcast ->') && !s.name.startsWith('mint_confirm'))
  const top = [...steps].sort((x, y) => y.summary.p50 - x.summary.p50).slice(0, 3)
  return {
    bound: `the steps between the intake's transaction and the broadcast, in series; the largest medians: ${top.map((s) => `${s.name} ${ms(s.summary.p50)} ms`).join('; ')}.`,
    evidence: [
      ...b.stages.map((s) => `${s.name}: p50 ${ms(s.summary.p50)} ms, p99 ${ms(s.summary.p99)} ms`),
      `CPU over the paced run (cores): ${cpuLine(b.cpu)}.`,
    ],
  }
}

function backlogEvidence(b: OrderBatchResult): { bound: string; evidence: string[] } {
  const arrival = b.submitted / Math.max(b.intakeSeconds, 1e-9)
  // order i arrives at i/arrival and, with the queue never empty, leaves at about i/rate
  const wait = (b.submitted / 2) * (1 / Math.max(b.confirmedPerSecond, 1e-9) - 1 / arrival)
  return {
    bound: `queueing: the ${b.submitted} orders arrived at ${rate(arrival)}/s (all accepted in ${num(b.intakeSeconds, 1)} s) but leave at the pipeline's ${rate(b.confirmedPerSecond)}/s, so the median order waits about (N/2)(1/rate - 1/arrival rate) = ${num(wait, 1)} s in the queue before mint_send takes it (measured pickup p50 ${num(b.pickup.p50 / 1000, 1)} s): under a backlog, latency is throughput (see the raw-limit note). The paced rows give the latency below capacity.`,
    evidence: [`enqueued -> broadcast p50 ${ms(b.toBroadcast.p50)} ms, p99 ${ms(b.toBroadcast.p99)} ms; queue pickup p50 ${ms(b.pickup.p50)} ms, p99 ${ms(b.pickup.p99)} ms.`],
  }
}
