import { auditExportRun } from './auditExportRun'
import type { SomeBenchRun } from './BenchRun'
import { barListImportRun } from './barListImportRun'
import { burnDrainRun } from './burnDrainRun'
import { chainBaselinesRun } from './chainBaselinesRun'
import { drainsRun } from './drainsRun'
import { historyRun } from './historyRun'
import { intakeBesideRun } from './intakeBesideRun'
import { intakeIdleRun } from './intakeIdleRun'
import { memoryRun } from './memoryRun'
import { noopPickupRun } from './noopPickupRun'
import { pacedRun } from './pacedRun'
import { sqsDrainRun } from './sqsDrainRun'
import { tracingRun } from './tracingRun'
import { webProfileRun } from './webProfileRun'
import { workerProfileRun } from './workerProfileRun'

/**
 * Every run of `npm run bench`, in the order they run (runBench): those of the main stack one after the other on
 * the stack they share, then those on a stack of their own. The report orders their sections by `section`.
 * A new run: its module (a BenchRun), its fields in BenchResult, one line here.
 */
export const BENCH_RUNS: readonly SomeBenchRun[] = [
  intakeIdleRun, // the intake first, alone on the stack
  webProfileRun,
  chainBaselinesRun,
  drainsRun,
  burnDrainRun,
  pacedRun, // leaves its worker running for the next two
  intakeBesideRun,
  workerProfileRun,
  tracingRun,
  noopPickupRun,
  memoryRun, // the peaks over every run above
  barListImportRun,
  auditExportRun,
  sqsDrainRun, // its own stack
  historyRun, // its own Postgres, the year seeded or reused
]
