import type { BenchResult } from '../BenchResult'
import type { DrainResult } from '../pipeline/runDrain'
import { drainCpuPerOrder, SQS_STACK_GROUPS, STACK_GROUPS } from './drainCpu'
import { cpuMsPer, num, p50p99, rate } from './format'
import { graphileBaseRow, SQS_TARGETS, statementsPerOrder } from './transportAndTracingTargets'

export type RenderTransportAndTracingParameters = {
  result: BenchResult
  line: (s?: string) => void
  table: (head: string[], rows: string[][]) => void
}

/** Sections 6 (the SQS transport beside graphile-worker) and 7 (tracing off and on). */
export function renderTransportAndTracing({ result: r, line, table }: RenderTransportAndTracingParameters): void {
  const base = graphileBaseRow(r, r.sqs?.drain.orders)
  const status = (d: DrainResult) =>
    [
      ...Object.entries(d.byStatus).map(([k, v]) => `${v} ${k}`),
      ...(d.refused > 0 ? [`${d.refused} refused`] : []),
    ].join(', ')
  const drainRow = (label: string, d: DrainResult) => {
    const cpu = drainCpuPerOrder(d, SQS_STACK_GROUPS)
    const n = d.byStatus.confirmed ?? 0
    return [
      label,
      String(d.orders),
      rate(d.confirmedPerSecond),
      num(d.seconds, 1),
      `${rate(d.intake.perSecond)}/s`,
      num(cpu.total, 1),
      ...SQS_STACK_GROUPS.map((g) => (g in d.cpu.byGroup ? num(cpu.byGroup[g] ?? NaN, 1) : '-')),
      num(cpuMsPer(d.cpu, 'worker main thread', n), 1),
      num(d.statements.totalMs / Math.max(1, n), 2),
      num(d.statements.calls / Math.max(1, n), 1),
      `${num(d.cpu.machineBusy, 2)} / ${d.cpu.cores}`,
      status(d),
    ]
  }
  const drainHead = [
    '',
    'orders',
    'confirmed/s',
    'drain s',
    'filled at',
    'CPU ms / order',
    ...SQS_STACK_GROUPS.map((g) => `${g} ms`),
    'worker event loop ms/order',
    'Postgres exec ms/order',
    'statements/order',
    'machine busy',
    'orders',
  ]
  const stagesTable = (columns: Array<[string, DrainResult]>) => {
    const names = [...new Set(columns.flatMap(([, d]) => d.latencies.stages.map((x) => x.name)))]
    table(
      ['step (p50 / p99 ms)', ...columns.map(([label]) => label)],
      names.map((name) => [
        name,
        ...columns.map(([, d]) => {
          const st = d.latencies.stages.find((x) => x.name === name)
          return st ? p50p99(st.summary) : 'n/a'
        }),
      ]),
    )
  }

  line('## 6. Queue transport: SQS beside graphile-worker')
  line()
  if (!r.sqs) {
    line('Not measured in this run (`--sqs-orders 0`).')
    line()
  } else {
    line(
      `The same drain as graphile-worker's of 1 signer and 1 worker process (${base ? `${base.label}, ${base.drain.orders} orders` : 'none in this run'}), on a second stack booted with \`QUEUE_TRANSPORT=sqs\` (web and worker read it at start; ${num(r.sqs.stackBootSeconds, 0)} s to boot, after the first stack stopped): the orders go in through the API with no worker running and land in the outbox (\`sqs_outbox\`, in the intake's one statement); the worker then starts, its relay sends them to the embedded SQS endpoint (SendMessageBatch of 10, each batch's rows stamped in one statement) and its consumer receives them 10 at a time (long polling), a full receive topped up by short polls to a group of \`MINT_SEND_BATCH\`, each group's orders handed to the send batcher together and through the same send path (\`sendMintOrders\`), its deletes and visibility changes in batch calls (docs/decisions/065-sqs-batches.md, docs/decisions/073-sqs-groups-and-pool-poll.md). The endpoint (\`local-aws-sqs\`, scripts/stack/sqs.ts) runs in its own process on the same machine and its CPU is counted as the stack's (\`sqs\`); in production SQS is a remote service and that column is not paid on the worker's hosts. "-": no such process in that stack.`,
    )
    line()
    table(drainHead, [
      ...(base ? [drainRow(`graphile-worker (${base.label})`, base.drain)] : []),
      drainRow('SQS', r.sqs.drain),
    ])
    const d = r.sqs.drain
    const cpu = drainCpuPerOrder(d, SQS_STACK_GROUPS)
    const sqsMs = cpu.byGroup.sqs ?? NaN
    const withoutEndpoint = cpu.total - (Number.isFinite(sqsMs) ? sqsMs : 0)
    if (base) {
      const baseCpu = drainCpuPerOrder(base.drain)
      line(
        `Beside graphile-worker: CPU per order without the SQS endpoint ${num(withoutEndpoint, 1)} ms against ${num(baseCpu.total, 1)} ms, ${num(withoutEndpoint / baseCpu.total, 2)}x (target at most ${SQS_TARGETS.cpuRatio}x; the endpoint's own ${num(sqsMs, 1)} ms per order apart); drain rate ${num(d.confirmedPerSecond / base.drain.confirmedPerSecond, 2)}x (at least ${SQS_TARGETS.rateRatio}x); ${num(statementsPerOrder(d), 1)} statements per order against ${num(statementsPerOrder(base.drain), 1)} (at most ${SQS_TARGETS.statementsPerOrder}).`,
      )
      line()
    }
    stagesTable([...(base ? [['graphile-worker', base.drain] as [string, DrainResult]] : []), ['SQS', d]])
    // where the SQS drain's statements go, beside section 1's list of graphile-worker's
    // (a result written before the list was kept has none)
    const mostCalled = d.statements.mostCalled ?? []
    if (mostCalled.length > 0) {
      const confirmed = Math.max(1, d.byStatus.confirmed ?? 0)
      line('The most frequent statements of the SQS drain (calls per order, ms per order):')
      line()
      for (const x of mostCalled)
        line(
          `- ${num(x.calls / confirmed, 2)} calls, ${num(x.totalMs / confirmed, 2)} ms: \`${x.query.slice(0, 160)}\``,
        )
      line()
    }
  }

  line('## 7. Tracing off and on')
  line()
  const t = r.tracing
  if (!t) {
    line('Not measured in this run (`--tracing-orders 0`).')
    line()
    return
  }
  line(
    `The same drain (${t.orders} orders, 1 signer, 1 worker process) and the same intake run (\`POST /api/gold/mint\`, ${t.off.intake?.clients ?? '?'} clients, ${r.options.intakeSeconds} s), first with OTEL_EXPORTER_OTLP_ENDPOINT unset (tracing off: every span is the API's no-op), then set to a local OTLP receiver answering 200 (tests/helpers/startOtlpSink, OTEL_EXPORTER_OTLP_PROTOCOL=${t.protocol}, as in production). Tracing is read at process start: the "on" worker starts with the variable, and the web is restarted with it (then restarted without it for the runs that follow). The receiver got ${t.exports.requests} exports (${num(t.exports.bytes / 1024, 0)} KB) during the "on" side. Both sides ran one after the other on the same stack.`,
  )
  line()
  table(
    [
      'drain',
      'confirmed/s',
      'CPU ms / order',
      ...STACK_GROUPS.map((g) => `${g} ms`),
      'worker event loop ms/order',
      'machine busy',
      'orders',
    ],
    (['off', 'on'] as const).map((side) => {
      const d = t[side].drain
      const cpu = drainCpuPerOrder(d)
      return [
        `tracing ${side}`,
        rate(d.confirmedPerSecond),
        num(cpu.total, 1),
        ...STACK_GROUPS.map((g) => num(cpu.byGroup[g] ?? NaN, 1)),
        num(cpuMsPer(d.cpu, 'worker main thread', d.byStatus.confirmed ?? 0), 1),
        `${num(d.cpu.machineBusy, 2)} / ${d.cpu.cores}`,
        status(d),
      ]
    }),
  )
  const intakes = (['off', 'on'] as const).flatMap((side) => {
    const x = t[side].intake
    return x ? [[side, x] as const] : []
  })
  if (intakes.length > 0) {
    table(
      ['intake', 'req/s', 'p50 / p99 ms', 'web CPU ms/req (event loop)', 'Postgres CPU ms/req', 'machine busy'],
      intakes.map(([side, x]) => [
        `tracing ${side}`,
        rate(x.result.perSecond),
        p50p99(x.result.latency),
        `${num(cpuMsPer(x.cpu, 'web', x.result.ok), 2)} (${num(cpuMsPer(x.cpu, 'web main thread', x.result.ok), 2)})`,
        num(cpuMsPer(x.cpu, 'postgres', x.result.ok), 2),
        `${num(x.cpu.machineBusy, 2)} / ${x.cpu.cores}`,
      ]),
    )
  }
  const off = drainCpuPerOrder(t.off.drain)
  const on = drainCpuPerOrder(t.on.drain)
  const dw = (on.byGroup.worker ?? NaN) - (off.byGroup.worker ?? NaN)
  const webOf = (x: (typeof intakes)[number] | undefined) => (x ? cpuMsPer(x[1].cpu, 'web', x[1].result.ok) : NaN)
  const dWeb = webOf(intakes.find(([s]) => s === 'on')) - webOf(intakes.find(([s]) => s === 'off'))
  line(
    `Tracing on costs the worker ${num(dw, 1)} ms of CPU per confirmed order (${num((100 * dw) / (off.byGroup.worker ?? NaN), 0)}%), the whole stack ${num(on.total - off.total, 1)} ms per order, and the web ${num(dWeb, 2)} ms per intake request. One run each way on a shared machine: differences within a millisecond or two per order are noise.`,
  )
  line()
}
