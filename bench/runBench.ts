import type { BenchResult } from './BenchResult'
import type { BenchSetup, SomeBenchRun } from './runs/BenchRun'
import { BENCH_RUNS } from './runs/benchRuns'
import { openMainStack } from './stack/openMainStack'
import { releaseInfo } from './stack/releaseInfo'
import { workerSettings } from './stack/workerSettings'
import { machineInfo } from './system/machineInfo'

export type RunBenchParameters = BenchSetup

/**
 * Everything `npm run bench` measures (docs/decisions/032-bench-measures-shipped-build.md): the runs this bench
 * enables (bench/runs/benchRuns.ts), those of the main stack on it from its start to its stop, in the list's order,
 * then each run on a stack of its own, booted once the main one stopped so that two stacks never share the machine.
 */
export async function runBench(p: RunBenchParameters): Promise<BenchResult> {
  const enabled = BENCH_RUNS.filter((run) => run.enabled(p.options))
  const startedAt = new Date()
  const mainStack = await openMainStack({
    ...p,
    mintBodies: Math.ceil(enabled.reduce((n, run) => n + (run.mintBodies?.(p.options) ?? 0), 0)),
  })
  const { ctx } = mainStack
  let result: Partial<BenchResult>
  try {
    for (const run of enabled) {
      if (run.stack !== 'main') continue
      logRun(p, run)
      Object.assign(ctx.measured, await run.run(ctx))
    }
    result = {
      ...ctx.measured,
      options: p.options,
      startedAt,
      seconds: 0,
      machine: machineInfo(),
      worker: workerSettings(ctx.stack.env),
      release: releaseInfo(ctx.stack.release),
      stackBootSeconds: mainStack.stackBootSeconds,
      notifications: mainStack.notifications,
    }
  } finally {
    await mainStack.close()
  }
  for (const run of enabled) {
    if (run.stack !== 'own') continue
    logRun(p, run)
    Object.assign(result, await run.run(p))
  }
  return completeResult({ profiles: {}, ...result })
}

function logRun(p: RunBenchParameters, run: SomeBenchRun): void {
  p.log(`run: ${run.name}${run.stack === 'own' ? ' (its own stack)' : ''}`)
}

/** The fields of BenchResult every bench has, checked: a run that fills one is missing from the list when absent. */
const ALWAYS = ['options', 'machine', 'intake', 'raw', 'sequential', 'drains', 'memory', 'profiles'] as const

function completeResult(result: Partial<BenchResult>): BenchResult {
  const missing = ALWAYS.filter((key) => result[key] === undefined)
  if (missing.length > 0) throw new Error(`the bench's runs left out ${missing.join(', ')}`)
  // every field without a `?` in BenchResult is one of ALWAYS or set above
  return result as BenchResult
}
