import type { IntakeRun } from '../intake/runIntake'
import type { CpuProfileSummary } from '../profile/summarizeCpuProfile'
import type { BenchResult } from '../runBench'
import type { CpuUsage } from '../system/startCpuMeter'
import type { TargetResult } from './evaluateTargets'
import { cpuMsPer, mb, ms, num, p50p99, rate, ratio } from './format'
import { renderBarListImport, renderIntakeInventoryNote } from './renderInventory'

export type RenderReportParameters = { result: BenchResult; targets: TargetResult[]; command: string }

/** docs/benchmarks.md from one run: the table, the targets, the notes on misses, the method. */
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

  line('# Benchmarks')
  line()
  line('Written by `npm run bench` (`scripts/bench.ts`, `bench/`) from one run; run it again rather than editing by hand.')
  line()
  line(`- **Date:** ${r.startedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`)
  line(`- **Command:** \`${command}\``)
  line(`- **Machine:** ${r.machine.cpus} CPUs (${r.machine.cpuModel}), ${num(r.machine.memoryGb, 1)} GB memory, ${r.machine.os}, Node ${r.machine.node}`)
  line(`- **Run time:** ${num(r.seconds / 60, 1)} min in all (the stack's start, including a \`next build\` when the web's sources changed: ${num(r.stackBootSeconds, 0)} s)`)
  line(
    `- **Stack:** the local stack (\`startStack\`) in a fresh data folder: embedded Postgres 17, anvil with **one block every ${o.blockTime} s** (not automine) and CONFIRMATIONS=${r.worker.confirmations}, ` +
      `the web as \`next start\` (production build), the KMS endpoint in its own process, ${r.worker.processes} worker process(es) x ${r.worker.concurrency} slots ` +
      `(WORKER_POLL_MS ${r.worker.pollMs}, CONFIRM_POLL_MS ${r.worker.confirmPollMs}). Postgres runs with track_commit_timestamp and pg_stat_statements on (the bench reads both).`,
  )
  line(
    `- **Block time:** ${o.blockTime} s for everything, as \`npm start\` runs anvil: a chain has blocks, and waiting for one is what the seed's sequential loop pays per transaction. With automine every transaction would be mined on arrival and the sequential loop would measure RPC round trips instead.`,
  )
  line(
    `- **Signers:** one stack with ${Math.max(...o.signerCounts)} KMS keys; for each signer count the bench activates that many (\`signers.active\`, which the worker honours when it reserves a nonce, the rotation switch of decision 010) and the baselines use as many keys of their own. One boot instead of three, and the only thing that changes between the rows is the number of signers.`,
  )
  line(
    `- **Shared machine:** others' work may run at the same time; every CPU figure below lists "others", the busy CPU of processes outside the bench's stack during that run.`,
  )
  line()

  line('## Targets')
  line()
  table(
    ['target', 'measured', 'result'],
    targets.map((t) => [t.name, t.measured, t.pass ? 'PASS' : '**MISS** (note below)']),
  )

  // 1. intake
  line('## 1. Intake: `POST /api/gold/mint`')
  line()
  line(
    `autocannon, ${o.intakeSeconds} s per run, every request with bars of its own; no worker running (the intake alone). Beside it, the same order-plus-job transaction over raw SQL by as many clients (postgres.js, one connection per client, named prepared statements): the database's limit; and the same \`POST /api/gold/mint\` sent as text/plain (session, role and origin checks, then 415 before the body is read): the framework's floor. Latency in ms.`,
  )
  line()
  const intakeRun = (kind: IntakeRun['kind'], c: number) => r.intake.runs.find((x) => x.kind === kind && x.clients === c)
  table(
    ['clients', 'intake req/s', 'intake p50 / p99', 'raw SQL tx/s', 'raw SQL p50 / p99', 'floor req/s', 'floor p50 / p99', 'intake / raw SQL', 'intake / floor'],
    o.concurrencies.map((c) => {
      const api = intakeRun('api', c)
      const sql = intakeRun('sql', c)
      const floor = intakeRun('floor', c)
      return [
        String(c),
        api ? rate(api.result.perSecond) : 'n/a',
        api ? p50p99(api.result.latency) : 'n/a',
        sql ? rate(sql.result.perSecond) : 'n/a',
        sql ? p50p99(sql.result.latency) : 'n/a',
        floor ? rate(floor.result.perSecond) : 'n/a',
        floor ? p50p99(floor.result.latency) : 'n/a',
        api && sql ? num(ratio(api.result.perSecond, sql.result.perSecond), 2) : 'n/a',
        api && floor ? num(ratio(api.result.perSecond, floor.result.perSecond), 2) : 'n/a',
      ]
    }),
  )
  renderIntakeInventoryNote({ concurrencies: o.concurrencies, runs: r.intake.runs, line, table })
  const unprepared = r.intake.runs.find((x) => x.kind === 'sql_unprepared')
  if (unprepared) {
    line(
      `Diagnostic, ${unprepared.clients} clients: the raw SQL sent the way Drizzle sends it (unnamed statements, so postgres.js parses and describes each one before executing it): ${rate(unprepared.result.perSecond)} tx/s, p50 / p99 ${p50p99(unprepared.result.latency)} ms.`,
    )
    line()
  }
  const failed = r.intake.runs.filter((x) => x.result.failed > 0)
  if (failed.length > 0) {
    line(`Refused or failed requests: ${failed.map((x) => `${x.kind} c=${x.clients}: ${x.result.failed} ${'statuses' in x.result ? JSON.stringify(x.result.statuses) : ''}`).join('; ')}.`)
    line()
  }
  line(
    'CPU per run: cores in use on average (1.00 = one core busy the whole run), then CPU milliseconds per accepted request, which other work on the machine hardly changes; and Postgres\'s own execution time per order (pg_stat_statements).',
  )
  line()
  table(
    ['run', 'web', 'postgres', 'load generator', 'others', 'machine busy', 'web CPU ms / req (event loop)', 'Postgres CPU ms / req', 'Postgres exec ms / order'],
    r.intake.runs.map((x) => [
      `${x.kind} c=${x.clients}`,
      ...cpuCells(x.cpu, ['web', 'postgres', 'bench']),
      num(x.cpu.others, 2),
      `${num(x.cpu.machineBusy, 2)} / ${x.cpu.cores}`,
      x.kind.startsWith('sql') ? '-' : `${num(cpuMsPer(x.cpu, 'web', x.result.ok), 2)} (${num(cpuMsPer(x.cpu, 'web main thread', x.result.ok), 2)})`,
      x.kind === 'floor' ? '-' : num(cpuMsPer(x.cpu, 'postgres', x.result.ok), 2),
      x.kind === 'floor' ? '-' : num(x.statements.totalMs / Math.max(1, x.result.ok), 2),
    ]),
  )

  // 2. pipeline
  line('## 2. Pipeline: request to confirmation')
  line()
  line(
    `For each signer count: **mintdesk** = ${o.orders} orders through the API at once (${o.submitConcurrency} clients) with the worker running, until all are confirmed; rate = confirmed orders / (last confirmation - first request). ` +
      `Latencies from job_events: enqueued (the intake transaction) -> broadcast (eth_sendRawTransaction answered) -> confirmed. ` +
      `**Sequential loop** = the seed's worker (read fees, sign through KMS, send, wait for the receipt, next), one loop per signer, ${o.seqPerSigner} transactions each. ` +
      `**Node's raw limit** = ${o.orders} of the same mint transactions signed beforehand, sent raw as fast as the node takes them, timed to inclusion. Rates in mints/s, latencies in ms.`,
  )
  line()
  table(
    ['signers', 'mintdesk mints/s', 'enqueued -> broadcast p50 / p99', 'enqueued -> confirmed p50 / p99', 'sequential loop tx/s', 'node raw limit tx/s', 'vs sequential', 'vs raw limit', 'orders'],
    r.pipeline.map((p) => [
      String(p.signers),
      rate(p.burst.confirmedPerSecond),
      p50p99(p.burst.toBroadcast),
      p50p99(p.burst.toConfirmed),
      rate(p.sequential.perSecond),
      rate(p.raw.perSecond),
      `${num(ratio(p.burst.confirmedPerSecond, p.sequential.perSecond), 1)}x`,
      num(ratio(p.burst.confirmedPerSecond, p.raw.perSecond), 2),
      statusCell(p.burst.byStatus, p.burst.refused),
    ]),
  )
  line(
    `Below capacity: after each burst, ${o.paced.orders} orders at a steady rate (open loop), half the burst's rate and at most ${o.paced.perSecond}/s. "sent" is the client's send time.`,
  )
  line()
  table(
    ['signers', 'rate', 'enqueued -> broadcast p50 / p99', 'sent -> broadcast p50 / p99', 'enqueued -> confirmed p50 / p99', 'queue pickup p50 / p99', 'orders'],
    r.pipeline.map((p) => [String(p.signers), `${p.paced.mode.kind === 'paced' ? p.paced.mode.perSecond : '?'}/s`, p50p99(p.paced.toBroadcast), p50p99(p.paced.sentToBroadcast), p50p99(p.paced.toConfirmed), p50p99(p.paced.pickup), statusCell(p.paced.byStatus, p.paced.refused)]),
  )
  line('Where the time goes, per order (p50 / p99 ms of each step, paced runs):')
  line()
  const stageNames = r.pipeline[0]?.paced.stages.map((x) => x.name) ?? []
  table(
    ['step', ...r.pipeline.map((p) => s(p.signers))],
    stageNames.map((name) => [name, ...r.pipeline.map((p) => p50p99(p.paced.stages.find((x) => x.name === name)?.summary ?? p.paced.pickup))]),
  )
  line('The same steps under the burst (p50 / p99 ms):')
  line()
  table(
    ['step', ...r.pipeline.map((p) => s(p.signers))],
    stageNames.map((name) => [name, ...r.pipeline.map((p) => p50p99(p.burst.stages.find((x) => x.name === name)?.summary ?? p.burst.pickup))]),
  )
  line('CPU during each burst (cores), CPU milliseconds per confirmed order, and worker slot time per task (sum of the attempts\' run times, from job_events):')
  line()
  table(
    ['signers', 'worker', 'postgres', 'web', 'anvil', 'kms', 'load generator', 'others', 'machine busy', 'CPU ms / order: worker, postgres, web, anvil, kms', 'worker slot time', 'mint_confirm runs / order'],
    r.pipeline.map((p) => {
      const n = p.burst.byStatus.confirmed ?? 0
      return [
        String(p.signers),
        ...cpuCells(p.burst.cpu, ['worker', 'postgres', 'web', 'anvil', 'kms', 'bench']),
        num(p.burst.cpu.others, 2),
        `${num(p.burst.cpu.machineBusy, 2)} / ${p.burst.cpu.cores}`,
        ['worker', 'postgres', 'web', 'anvil', 'kms'].map((g) => num(cpuMsPer(p.burst.cpu, g, n), 1)).join(', '),
        p.burst.busy.map((t) => `${t.task} ${num(t.busyMs / 1000, 1)} s`).join(', '),
        num(p.burst.confirmRunsPerOrder, 1),
      ]
    }),
  )
  line(
    `Chain side: a mint uses ${r.pipeline[0]?.raw.gasPerTx ?? '?'} gas and a block holds ${r.pipeline[0]?.raw.blockGasLimit ?? '?'} gas (${r.pipeline[0]?.raw.txsPerBlockByGas ?? '?'} mints), one block per ${o.blockTime} s; the sequential loop's median transaction took ${r.pipeline.map((p) => `${ms(p.sequential.perTx.p50)} ms (${s(p.signers)})`).join(', ')}.`,
  )
  line()

  // 3. pickup
  line('## 3. Queue pickup (LISTEN/NOTIFY)')
  line()
  line(
    `From the commit of the transaction that added the job (pg_xact_commit_timestamp) to the task's start. mintdesk: \`mint_send\`'s 'started' event, in the paced runs (rates above). graphile-worker's own figure: a standalone runner (\`bench/pickup/noopRunner.ts\`, same concurrency and poll interval as the worker) with a no-op task, ${r.noop.jobs} jobs added with \`graphile_worker.add_job\` at ${o.paced.perSecond}/s, one per transaction, on the same stack (mintdesk's worker idle beside it).`,
  )
  line()
  table(
    ['', 'p50 ms', 'p99 ms', 'jobs'],
    [
      ...r.pipeline.map((p) => [`mintdesk mint_send, ${s(p.signers)}`, ms(p.paced.pickup.p50), ms(p.paced.pickup.p99), String(p.paced.pickup.n)]),
      ['graphile-worker, no-op task', ms(r.noop.pickup.p50), ms(r.noop.pickup.p99), `${r.noop.started} / ${r.noop.jobs}`],
    ],
  )

  // 4. memory
  line('## 4. Memory')
  line()
  line('Peak resident set over the whole run (all the load above): VmHWM, the kernel\'s high-water mark, of the busiest process of each group. "Tree" is the group\'s processes together (the worker runs under tsx\'s wrapper process; Postgres is a process per connection), as proportional set size (shared pages split between the processes sharing them), sampled every 500 ms.')
  line()
  const limits: Record<string, string> = { web: '< 400 MB', worker: '< 200 MB' }
  table(
    ['process', 'peak RSS (VmHWM)', 'tree peak (PSS, sampled)', 'target'],
    Object.entries(r.memory)
      .filter(([name]) => name !== 'bench')
      .map(([name, m]) => [name, mb(m.peakProcessKb), mb(m.peakTreeKb), limits[name] ?? '-']),
  )

  // 5. bar lists
  renderBarListImport({ barListImport: r.barListImport, line, table })

  // notes
  const misses = targets.filter((t) => !t.pass && t.note)
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

  // profiles
  line('## CPU profiles')
  line()
  line(
    'Taken in extra runs that are not in the tables (V8\'s sampling profiler, 1 ms, switched on and off by the bench with SIGUSR2 through `bench/profile/cpuProfilePreload.cjs`): the web under the intake at the highest concurrency, the worker under a burst with all signers active. Self time is charged to the package that asked for it: a native or `node:*` frame counts for the nearest caller above it that is not Node.js itself. "app bundle (.next/server)" is the web\'s compiled route code with the libraries Next bundles into it (next-auth and its JOSE code, zod, Drizzle, mintdesk\'s lib/); postgres.js stays an external package.',
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

function cpuCells(cpu: CpuUsage, groups: string[]): string[] {
  return groups.map((g) => num(cpu.byGroup[g] ?? 0, 2))
}

function statusCell(byStatus: Record<string, number>, refused: number): string {
  const parts = Object.entries(byStatus).map(([k, v]) => `${v} ${k}`)
  if (refused > 0) parts.push(`${refused} refused`)
  return parts.join(', ')
}

function profileSection(line: (s?: string) => void, label: string, p: CpuProfileSummary | undefined) {
  if (!p) {
    line(`${label}: no profile in this run.`)
    line()
    return
  }
  line(`**${label}** (${num(p.seconds, 0)} s, ${p.samples} samples, ${num(p.busyPercent, 0)}% busy). Busy time by area: ${p.byArea.map((a) => `${a.name} ${num(a.percent, 1)}%`).join(', ')}.`)
  line()
  line(`Top functions by self time: ${p.topFunctions.map((f) => `\`${f.name}\` ${num(f.percent, 1)}%`).join(', ')}.`)
  line()
}

const METHOD = [
  'Intake: autocannon 9 (programmatic), keep-alive connections = clients, each sending its next request when the last one answered; a request counts when it got 202; latency per response (hrtime). Bodies are generated per request (two bars with serials unique to the run), so no request is refused as a reused bar. The session is the dev staff user\'s (signed in through /api/auth/csrf and the credentials callback, with an Origin header).',
  'Raw SQL: the statements Drizzle generates for `createMintOrder` (captured with Drizzle\'s `toSQL`), in the same order and with the same values, plus `graphile_worker.add_job` as `addJob` calls it, in one transaction per order, `clients` loops on as many connections.',
  'Floor: the intake\'s own request, `POST /api/gold/mint` with its body, sent as `text/plain`: the route wrapper checks the session, the role and the same origin, then answers 415 before reading the body, so no database call and no domain code runs. The production build has no benchmark route.',
  'Pipeline: orders sent through the API by a keep-alive client; every timestamp after the request is the database\'s (now() of the transaction that wrote the job_events row, or pg_xact_commit_timestamp of that row\'s xmin for commits), on the same machine clock as the client\'s send times. Orders of the intake runs are cancelled and their jobs removed before the worker starts.',
  'Sequential loop and raw limit use KMS keys of their own (granted MINTER_ROLE and funded like the worker\'s), so they never touch the worker\'s nonces. The raw limit is timed from the first eth_sendRawTransaction to the moment every signer\'s `latest` nonce shows all transactions included (polled every 20 ms): with one block per second the figure moves in steps of one block.',
  'Queue pickup: commit timestamp (track_commit_timestamp) of the job\'s transaction to the start of the task (mintdesk: the `started` event its task wrapper writes first; the no-op runner: the task function\'s first line).',
  'CPU: /proc/<pid>/stat ticks of each process tree (its own and its reaped children\'s) over each run; "others" = the machine\'s busy time (/proc/stat) minus the bench\'s processes. Memory: /proc/<pid>/status VmHWM, /proc/<pid>/smaps_rollup Pss.',
]
