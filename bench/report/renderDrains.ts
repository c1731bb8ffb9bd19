import type { RenderSectionParameters } from '../runs/BenchRun'
import { drainCpuPerOrder, STACK_GROUPS } from './drainCpu'
import { cpuMsPer, num, p50p99, rate, ratio, signersLabel as s, statusCell } from './format'
import { renderChainBaselines } from './renderChainBaselines'

/** Section 1: the scaling table (signers x worker processes), the chain's baselines, where the CPU goes, the steps. */
export function renderDrains(p: RenderSectionParameters): void {
  const { result: r, line, table } = p
  const o = r.options
  const rawOf = (k: number) =>
    r.raw.find((x) => x.signers === k) ?? r.raw.find((x) => x.signers === Math.max(...r.raw.map((y) => y.signers)))
  line('## 1. The drain: signers x worker processes')
  line()
  line(
    `Each row: with no worker running, ${o.orders} orders go in through \`POST /api/gold/mint\` (${o.submitConcurrency} clients; "filled at" is that intake's rate) and the dev approver signs each order's MintIntent and posts it to \`POST /api/gold/mint/{id}/approve\` (the queue fills); then the worker process(es) start and the drain is timed from the first job event of the batch to its last \`confirmed\` event (job_events). CPU is each process group's over exactly that window and over the approvals' (the web's signature checks), sampled from /proc every 200 ms, per confirmed order. The node's raw limit: ${o.orders} \`GoldMinter.attestAndMint\` calls of approved baseline orders (the dev approver's signature, the custodian-signed list) built as the worker builds them, signed beforehand with keys of the bench's own that hold no role, sent raw as fast as the node takes them, timed to inclusion, in the same run.`,
  )
  line()
  table(
    [
      'signers',
      'workers',
      'confirmed/s',
      'vs raw limit',
      'drain s',
      'filled at',
      'CPU ms / order',
      ...STACK_GROUPS.map((g) => `${g} ms`),
      'machine busy',
      'orders',
    ],
    r.drains.map((d) => {
      const cpu = drainCpuPerOrder(d)
      return [
        String(d.signers),
        String(d.workers),
        rate(d.confirmedPerSecond),
        num(ratio(d.confirmedPerSecond, rawOf(d.signers)?.perSecond ?? NaN), 2),
        num(d.seconds, 1),
        `${rate(d.intake.perSecond)}/s`,
        num(cpu.total, 1),
        ...STACK_GROUPS.map((g) => num(cpu.byGroup[g] ?? NaN, 1)),
        `${num(d.cpu.machineBusy, 2)} / ${d.cpu.cores}`,
        statusCell(d.byStatus, d.refused),
      ]
    }),
  )
  renderChainBaselines(p)

  line(
    "Where each millisecond of CPU goes during the drain (1 worker process): cores in use on average over the drain, then ms per confirmed order (the drain's window alone: the approvals' CPU is in the table above); Postgres's own execution time (pg_stat_statements) and statements per order.",
  )
  line()
  const oneWorker = r.drains.filter((d) => d.workers === Math.min(...o.workerCounts))
  table(
    [
      'signers',
      ...STACK_GROUPS.map((g) => `${g} cores (ms/order)`),
      'worker event loop ms/order',
      'Postgres exec ms/order',
      'statements/order',
      'others',
    ],
    oneWorker.map((d) => {
      const n = d.byStatus.confirmed ?? 0
      return [
        String(d.signers),
        ...STACK_GROUPS.map((g) => `${num(d.cpu.byGroup[g] ?? 0, 2)} (${num(cpuMsPer(d.cpu, g, n), 1)})`),
        num(cpuMsPer(d.cpu, 'worker main thread', n), 1),
        num(d.statements.totalMs / Math.max(1, n), 2),
        num(d.statements.calls / Math.max(1, n), 1),
        num(d.cpu.others, 2),
      ]
    }),
  )
  for (const d of oneWorker) {
    const n = Math.max(1, d.byStatus.confirmed ?? 0)
    line(`Postgres's top statements, ${s(d.signers)} (ms per order, calls per order):`)
    line()
    for (const x of d.statements.top.slice(0, 5))
      line(`- ${num(x.totalMs / n, 2)} ms, ${num(x.calls / n, 2)} calls: \`${x.query.slice(0, 160)}\``)
    line()
  }
  const first = oneWorker[0]
  if (first && (first.statements.mostCalled?.length ?? 0) > 0) {
    const n = Math.max(1, first.byStatus.confirmed ?? 0)
    line(
      `The most frequent statements, ${s(first.signers)} (calls per order, ms per order): each is a round trip of a process to Postgres:`,
    )
    line()
    for (const x of first.statements.mostCalled.slice(0, 12))
      line(`- ${num(x.calls / n, 2)} calls, ${num(x.totalMs / n, 2)} ms: \`${x.query.slice(0, 160)}\``)
    line()
  }
  line('Steps during the drain (p50 / p99 ms; under a full queue the waits are queueing):')
  line()
  const stageNames = [...new Set(oneWorker.flatMap((d) => d.latencies.stages.map((x) => x.name)))]
  table(
    ['step', ...oneWorker.map((d) => s(d.signers))],
    stageNames.map((name) => [
      name,
      ...oneWorker.map((d) => {
        const st = d.latencies.stages.find((x) => x.name === name)
        return st ? p50p99(st.summary) : 'n/a'
      }),
    ]),
  )
}
