import type { BenchResult } from '../BenchResult'
import { APPENDIX, type SomeBenchRun } from '../runs/BenchRun'
import { runsInReportOrder } from '../runs/runsInReportOrder'
import { createMarkdown } from './createMarkdown'
import type { TargetResult } from './evaluateTargets'
import { num } from './format'
import { renderMissNotes } from './renderMissNotes'

export type RenderReportParameters = {
  result: BenchResult
  targets: TargetResult[]
  command: string
  /** the runs whose sections it draws: bench/runs/benchRuns.ts unless told */
  runs?: readonly SomeBenchRun[]
}

/**
 * docs/benchmarks.md from one run: the run's setting, the targets, each run's section (bench/runs/benchRuns.ts, in
 * the order of their `section`), the notes on misses, the appendix (CPU profiles), how each number is measured.
 */
export function renderReport({ result: r, targets, command, runs: list }: RenderReportParameters): string {
  const o = r.options
  const md = createMarkdown()
  const { line, table } = md
  const runs = runsInReportOrder(list)
  const section = { result: r, line, table }

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

  for (const run of runs) if (run.section < APPENDIX) run.render?.(section)
  renderMissNotes({ targets, line })
  for (const run of runs) if (run.section >= APPENDIX) run.render?.(section)

  line('## How each number is measured')
  line()
  for (const m of runs.flatMap((run) => run.method ?? [])) line(`- ${m}`)
  line()
  return md.text()
}
