import type { IntakeRun } from '../intake/runIntake'
import type { CpuProfileSummary, ProcessMemoryStats } from '../profile/summarizeCpuProfile'
import type { BenchResult } from '../runBench'
import {
  drainCpuPerOrder,
  STACK_GROUPS,
  type TargetResult,
  WEB_RSS_TARGET_MB,
  WORKER_RSS_TARGET_MB,
} from './evaluateTargets'
import { cpuMsPer, mb, ms, num, p50p99, rate, ratio } from './format'
import { notificationCost } from './notificationCost'
import { renderAuditExport } from './renderAuditExport'
import { renderBurnDrain } from './renderBurnDrain'
import { renderBarListImport } from './renderInventory'
import { renderTransportAndTracing } from './renderTransportAndTracing'

export type RenderReportParameters = { result: BenchResult; targets: TargetResult[]; command: string }

/** docs/benchmarks.md from one run: the targets, the tables, the notes on misses, the method. */
export function renderReport({ result: r, targets, command }: RenderReportParameters): string {
  const o = r.options
  const out: string[] = []
  const line = (s = '') => out.push(s)
  const table = (head: string[], rows: string[][]) => {
    line(`| ${head.join(' | ')} |`)
    line(`| ${head.map(() => '---').join(' | ')} |`)
    for (const row of rows) line(`| ${row.join(' | ')} |`)
    line()
  }
  const s = (n: number) => `${n} signer${n > 1 ? 's' : ''}`
  const rawOf = (k: number) =>
    r.raw.find((x) => x.signers === k) ?? r.raw.find((x) => x.signers === Math.max(...r.raw.map((y) => y.signers)))

  line('# Benchmarks')
  line()
  line(
    'Written by `npm run bench` (`scripts/bench.ts`, `bench/`, docs/decisions/032-bench-measures-shipped-build.md) from one run; run it again rather than editing by hand.',
  )
  line()
  line(`- **Date:** ${r.startedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`)
  line(`- **Command:** \`${command}\``)
  line(
    `- **Machine:** ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${num(r.machine.memoryGb, 1)} GB memory, ${r.machine.os}, Node ${r.machine.node}`,
  )
  line(
    `- **Run time:** ${num(r.seconds / 60, 1)} min in all (the stack's start, including the release build when the sources changed: ${num(r.stackBootSeconds, 0)} s)`,
  )
  line(
    `- **As shipped:** the web is the Next standalone server (\`${r.release.webEnv ? `${r.release.webEnv} ` : ''}node server.js\`) and each worker \`${r.release.workerEnv ? `${r.release.workerEnv} ` : ''}node worker.mjs\`, both from \`scripts/build-release.ts\` (sources ${r.release.sourceHash.slice(0, 12)}), copied and run as the Dockerfile's stages run them; their NODE_OPTIONS and MALLOC_ARENA_MAX are read from the Dockerfile.`,
  )
  line(
    `- **Stack:** the local stack (\`startStack\`, option \`release\`) in a fresh data folder: embedded Postgres 17 (track_commit_timestamp and pg_stat_statements on: the bench reads both), anvil with one block every ${o.blockTime} s and CONFIRMATIONS=${r.worker.confirmations}, the KMS endpoint in its own process with ${Math.max(...o.signerCounts)} keys (no KMS Sign budget in the workers: KMS_SIGN_RATE=0), worker defaults otherwise (WORKER_CONCURRENCY ${r.worker.concurrency}, WORKER_POLL_MS ${r.worker.pollMs}, CONFIRM_POLL_MS ${r.worker.confirmPollMs}, MINT_SEND_BATCH ${r.worker.sendBatch}).`,
  )
  line(
    `- **Shared machine:** others' work may run at the same time; CPU figures list "others", the busy CPU of processes outside the bench's stack. CPU milliseconds per order hardly depend on it; rates and latencies do.`,
  )
  line()

  line('## Targets')
  line()
  table(
    ['target', 'measured', 'result'],
    targets.map((t) => [t.name, t.measured, t.pass === null ? 'reported' : t.pass ? 'PASS' : '**MISS** (note below)']),
  )

  // 1. drains
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
  table(
    ['chain baseline', 'tx/s', 'how'],
    [
      ...r.raw.map((x) => [
        `node's raw limit, ${s(x.signers)}`,
        rate(x.perSecond),
        `${x.txs} pre-signed mints in ${x.blocks} blocks (${x.gasPerTx} gas each; a ${x.blockGasLimit}-gas block holds ${x.txsPerBlockByGas})`,
      ]),
      [
        `sequential loop (the seed's worker), 1 signer`,
        rate(r.sequential.perSecond),
        `${r.sequential.txs} transactions, each: fees, KMS Sign, send, wait for the receipt (p50 ${ms(r.sequential.perTx.p50)} ms)`,
      ],
    ],
  )

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

  // 2. below capacity
  line('## 2. Under capacity')
  line()
  const p = r.paced
  if (!p) {
    line('Not measured in this run.')
    line()
  } else {
    line(
      `One worker process, ${s(Math.min(...o.signerCounts))}, ${p.submitted} orders sent at a steady ${p.perSecond}/s (open loop), half the capacity measured by that drain (${rate(p.capacity)}/s). One block = ${o.blockTime * 1000} ms, one poll = CONFIRM_POLL_MS ${r.worker.confirmPollMs} ms.`,
    )
    const f = r.floor
    if (f) {
      line(
        `Beside it, the floor: the same path at ${f.perSecond}/s (${f.submitted} orders), slow enough that each order is a batch of its own and none waits for another: how long the path itself is.`,
      )
    }
    line()
    const stageOf = (b: typeof f, name: string) => b?.stages.find((x) => x.name === name)?.summary
    const floorCells = (x: { p50: number; p99: number; n: number } | undefined) =>
      f ? [x ? ms(x.p50) : 'n/a', x ? ms(x.p99) : 'n/a'] : []
    table(
      [
        '',
        `p50 ms (${p.perSecond}/s)`,
        `p99 ms (${p.perSecond}/s)`,
        'n',
        ...(f ? [`p50 ms (${f.perSecond}/s)`, `p99 ms (${f.perSecond}/s)`] : []),
      ],
      [
        [
          'committed (approval transaction: its job added) -> broadcast',
          ms(p.committedToBroadcast.p50),
          ms(p.committedToBroadcast.p99),
          String(p.committedToBroadcast.n),
          ...floorCells(f?.committedToBroadcast),
        ],
        [
          'broadcast -> confirmed',
          ms(p.broadcastToConfirmed.p50),
          ms(p.broadcastToConfirmed.p99),
          String(p.broadcastToConfirmed.n),
          ...floorCells(f?.broadcastToConfirmed),
        ],
        [
          'committed -> confirmed',
          ms(p.committedToConfirmed.p50),
          ms(p.committedToConfirmed.p99),
          String(p.committedToConfirmed.n),
          ...floorCells(f?.committedToConfirmed),
        ],
        ...p.stages.map((x) => [
          x.name,
          ms(x.summary.p50),
          ms(x.summary.p99),
          String(x.summary.n),
          ...floorCells(stageOf(f, x.name)),
        ]),
        ...(r.noop
          ? [
              [
                `graphile-worker's own pickup: no-op task, ${r.noop.jobs} jobs at 20/s (bench/pickup)`,
                ms(r.noop.pickup.p50),
                ms(r.noop.pickup.p99),
                `${r.noop.started}`,
                ...(f ? ['', ''] : []),
              ],
            ]
          : []),
      ],
    )
    line(
      `Orders: ${statusCell(p.byStatus, p.refused)}; CPU over the run (cores): ${STACK_GROUPS.map((g) => `${g} ${num(p.cpu.byGroup[g] ?? 0, 2)}`).join(', ')}.`,
    )
    const nb = notificationCost(r.notifications)
    if (nb) {
      line()
      line(
        `Before each drain but the first, before these runs and before section 7, a worker sent the notifications the runs before had left: the email of each confirmed order to its requester, several of one requester in one digest message (at most 50, docs/decisions/033-notifications.md), all on one address's lane. ` +
          `They run after the mint jobs (priority 10), so a drain's window, which ends at its last confirmation, holds few of them and its CPU per order leaves them out. ` +
          `In all: ${nb.emails} emails (orders' events to an address) in ${nb.messages} messages and ${nb.webhooks} webhooks in ${num(nb.seconds, 1)} s (${rate((nb.emails + nb.webhooks) / Math.max(0.001, nb.seconds))}/s)${nb.unsettled > 0 ? `, ${nb.unsettled} window(s) ending at their timeout` : ''}; ` +
          `CPU per notification (ms): ${STACK_GROUPS.map((g) => `${g} ${num(nb.msPer[g] ?? 0, 1)}`).join(', ')}; the bench's own process, which holds the local SMTP sink, ${num(nb.msPer.bench ?? 0, 1)}.`,
      )
    }
    if (f) {
      const n = Math.max(1, f.submitted)
      line()
      line(
        `At ${f.perSecond}/s: ${statusCell(f.byStatus, f.refused)}; CPU over the run (cores): ${STACK_GROUPS.map((g) => `${g} ${num(f.cpu.byGroup[g] ?? 0, 2)}`).join(', ')}; ` +
          `per order (ms): ${STACK_GROUPS.map((g) => `${g} ${num(cpuMsPer(f.cpu, g, n), 1)}`).join(', ')}. At this rate each order is a batch of its own, and the work that runs whatever the rate (a block every second, the confirmer's pass at each block and its polls for the next, graphile-worker's polls) is shared by few orders.`,
      )
    }
    line()
  }

  // 3. intake
  line('## 3. Intake: `POST /api/gold/mint`')
  line()
  line(
    `autocannon, ${o.intakeSeconds} s per run, keep-alive connections = clients, every request with bars of its own; beside it the same transaction over raw SQL by as many clients (\`bench/intake/insertOrderRaw.ts\`, postgres.js, one connection each, named prepared statements): the database's limit; and the floor: the same request as text/plain (session, role and origin checks, then 415, no database). "Worker idle": no worker process; "worker running": one worker with every signer active, minting the orders as they come.`,
  )
  line()
  table(
    [
      'run',
      'clients',
      'req/s',
      'p50 / p99 ms',
      'vs raw SQL',
      'web CPU ms/req (event loop)',
      'Postgres CPU ms/req',
      'Postgres exec ms/order',
      'worker cores',
      'machine busy',
    ],
    [...r.intake.idle, ...r.intake.beside].map((x) => {
      const sql = [...r.intake.idle, ...r.intake.beside].find(
        (y) => y.kind === 'sql' && y.clients === x.clients && y.label === x.label,
      )
      return [
        `${x.kind} (${x.label})`,
        String(x.clients),
        rate(x.result.perSecond),
        p50p99(x.result.latency),
        x.kind === 'api' && sql ? num(ratio(x.result.perSecond, sql.result.perSecond), 2) : '-',
        x.kind === 'sql'
          ? '-'
          : `${num(cpuMsPer(x.cpu, 'web', x.result.ok), 2)} (${num(cpuMsPer(x.cpu, 'web main thread', x.result.ok), 2)})`,
        x.kind === 'floor' ? '-' : num(cpuMsPer(x.cpu, 'postgres', x.result.ok), 2),
        x.kind === 'floor' ? '-' : num(x.statements.totalMs / Math.max(1, x.result.ok), 2),
        num(x.cpu.byGroup.worker ?? 0, 2),
        `${num(x.cpu.machineBusy, 2)} / ${x.cpu.cores}`,
      ]
    }),
  )
  failedRuns(line, [...r.intake.idle, ...r.intake.beside])

  // 4. memory
  line('## 4. Memory, as shipped')
  line()
  line(
    "Peak resident set over every run above (the bar-list import of section 5 excepted: its peak is its own row): VmHWM, the kernel's high-water mark, of the largest process of each group, and the group's processes together as proportional set size (shared pages split between the processes sharing them), sampled every 500 ms. Every worker process of the run counts (one per drain; the profiled one until its profile began: the profiler's samples are its memory too, and no image runs it), and every web process (section 7 restarts the web twice: once with tracing on, once without).",
  )
  line()
  const limits: Record<string, string> = { web: `< ${WEB_RSS_TARGET_MB} MB`, worker: `< ${WORKER_RSS_TARGET_MB} MB` }
  table(
    ['process', 'peak RSS (VmHWM)', 'group peak (PSS, sampled)', 'target'],
    Object.entries(r.memory)
      .filter(([name]) => name !== 'bench')
      .map(([name, m]) => [name, mb(m.peakProcessKb), mb(m.peakTreeKb), limits[name] ?? '-']),
  )
  memoryLine(line, 'worker', r.profiles.worker?.memory)
  memoryLine(line, 'web', r.profiles.web?.memory)

  renderBarListImport({ barListImport: r.barListImport, line, table })
  renderAuditExport({ auditExport: r.auditExport, line, table })
  renderTransportAndTracing({ result: r, line, table })
  renderBurnDrain({ result: r, line, table })

  // notes
  const misses = targets.filter((t) => t.pass === false && t.note)
  line('## Notes on missed targets')
  line()
  if (misses.length === 0) line('None: every target was met.')
  const seen = new Map<string, string>()
  for (const t of misses) {
    if (!t.note) continue
    line(`### ${t.name}`)
    line()
    line(`Measured: ${t.measured}.`)
    line()
    const key = JSON.stringify(t.note)
    const earlier = seen.get(key)
    if (earlier) {
      line(`Same bound and evidence as "${earlier}".`)
      line()
      continue
    }
    seen.set(key, t.name)
    line(`**Bound:** ${t.note.bound}`)
    line()
    for (const e of t.note.evidence) line(`- ${e}`)
    line()
  }

  line('## CPU profiles')
  line()
  line(
    "Taken in extra runs outside the tables (V8's sampling profiler, 1 ms, toggled by SIGUSR2 through `bench/profile/cpuProfilePreload.cjs`): the web under the intake, the worker under a batch with every signer active. Self time is charged to the package that asked for it (frames of a bundle are mapped to their sources through its source map).",
  )
  line()
  profileSection(line, 'Web', r.profiles.web)
  profileSection(line, 'Worker', r.profiles.worker)

  line('## How each number is measured')
  line()
  for (const m of METHOD) line(`- ${m}`)
  line()
  return out.join('\n')
}

function statusCell(byStatus: Record<string, number>, refused: number): string {
  const parts = Object.entries(byStatus).map(([k, v]) => `${v} ${k}`)
  if (refused > 0) parts.push(`${refused} refused`)
  return parts.join(', ')
}

function failedRuns(line: (s?: string) => void, runs: IntakeRun[]): void {
  const failed = runs.filter((x) => x.result.failed > 0)
  if (failed.length === 0) return
  line(
    `Refused or failed requests: ${failed.map((x) => `${x.kind} (${x.label}) c=${x.clients}: ${x.result.failed} ${'statuses' in x.result ? JSON.stringify(x.result.statuses) : ''}`).join('; ')}.`,
  )
  line()
}

function memoryLine(line: (s?: string) => void, who: string, m: ProcessMemoryStats | undefined): void {
  if (!m) return
  line(
    `Inside the ${who} after its profiled run (process.memoryUsage(), then a forced full GC): RSS ${num(m.rss, 0)} MB = V8 heap ${num(m.heapTotal, 0)} MB reserved (${num(m.heapUsed, 0)} MB allocated, ${num(m.liveHeap, 0)} MB live) + ${num(m.external, 0)} MB external buffers + ${num(m.rss - m.heapTotal - m.external, 0)} MB outside V8's heap (the Node.js binary, native libraries, compiled code). Heap spaces after the GC (reserved / used MB): ${m.spaces.map((sp) => `${sp.name} ${num(sp.size, 0)} / ${num(sp.used, 0)}`).join(', ')}.`,
  )
  line()
}

function profileSection(line: (s?: string) => void, label: string, p: CpuProfileSummary | undefined) {
  if (!p) {
    line(`${label}: no profile in this run.`)
    line()
    return
  }
  line(
    `**${label}** (${num(p.seconds, 0)} s, ${p.samples} samples, ${num(p.busyPercent, 0)}% busy). Busy time by area: ${p.byArea.map((a) => `${a.name} ${num(a.percent, 1)}%`).join(', ')}.`,
  )
  line()
  line(`Top functions by self time: ${p.topFunctions.map((f) => `\`${f.name}\` ${num(f.percent, 1)}%`).join(', ')}.`)
  line()
}

const METHOD = [
  "Drain: the orders are accepted through the API with no worker running (the queue already full), then the workers start; the window runs from the first job_events row of the batch after its `enqueued` rows (a worker took an order) to its last `confirmed` row, both the database's clock. Rate = confirmed orders / window. Between two drains every worker is stopped (SIGTERM).",
  "CPU per confirmed order: /proc/<pid>/stat ticks (user + system, the process's own and its reaped children's) of each group's process tree, sampled every 200 ms and interpolated to the window; divided by the confirmed orders. The stack = web + worker(s) + Postgres (every backend) + anvil + the KMS endpoint; the bench's own process (load generator, pollers) is left out. \"Worker event loop\" counts the worker's main thread only.",
  "Node's raw limit: the same `GoldMinter.attestAndMint` call (approved baseline orders, the custodian-signed list) signed beforehand by keys of the bench's own (no role, funded like the worker's), sent in JSON-RPC batches of 100 right after a block, timed until every signer's `latest` nonce shows them all included (polled every 20 ms): it moves in steps of one block.",
  "Under capacity: open-loop requests at half the drain rate of one signer and one worker; committed = pg_xact_commit_timestamp (track_commit_timestamp) of the approval's `enqueued` row (the approval adds the job), broadcast = the `broadcast` (or `already_known`) row's now(), confirmed = the `confirmed` row's now().",
  "Notifications: before each drain but the first, before the paced run and before section 7, one worker runs until no notification job is queued or running and no event waits for its dispatch (at most 420 s a window); emails = email_deliveries turned `sent` over the windows (messages: their distinct Message-IDs), CPU per notification = the windows' CPU over the emails and webhooks.",
  "Intake: autocannon 9; a request counts when it got 202. Raw SQL: the intake's own transaction without HTTP, session or validation (`bench/intake/insertOrderRaw.ts`, kept in step with `lib/web/mint/createMintOrder.ts`). The floor: the route wrapper's checks then 415. Postgres exec = pg_stat_statements' total_exec_time over the run.",
  "SQS transport: a second stack with QUEUE_TRANSPORT=sqs and the embedded SQS endpoint in its own process; the same drain (outbox -> relay -> SQS -> consumer -> send path), timed and metered like section 1's.",
  "Burn drain: N redemptions (500 in the full run, 100 in `--quick`, 20 in `--smoke`) created, signed and queued with no worker running, then drained by 1 worker process with 1 signer active. Setup outside the window: confirmed mints to four holders (baseline orders, relayed by the holders), each mint's amount transferred back to the redemption address (pre-signed, sent raw with explicit nonces), the deposits recorded by a worker's `deposit_watch`, one redemption per deposit (`createRedemption`, one bar of equal fine weight). The approvals go through `POST /api/gold/redemptions/{id}/approve` as the mints' do. The window runs from the first job_events row of the batch after its `enqueued` rows to its last `confirmed` row (the redemption's `burned` is set in the same transaction); rate = burned redemptions / window; CPU per burn = each group's CPU over that window and the approvals' window (sampled as for the mint drain) / burned redemptions. The table beside it shows the same run's 1 signer x 1 worker mint drain, CPU counted the same way.",
  'Tracing: OTEL_EXPORTER_OTLP_ENDPOINT unset, then set to a local receiver answering 200 (http/protobuf); the worker started and the web restarted with it; the same drain and intake run both ways, one after the other.',
  'Memory: /proc/<pid>/status VmHWM of every process of the group (the peak since the process started), /proc/<pid>/smaps_rollup Pss sampled every 500 ms.',
]
