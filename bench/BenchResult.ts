import type { AuditExportResult } from './audit/runAuditExport'
import type { HistoryResult } from './history/runHistory'
import type { IntakeRun } from './intake/runIntake'
import type { NoopPickupResult } from './pickup/runNoopPickup'
import type { BurnDrainResult } from './pipeline/runBurnDrain'
import type { DrainResult } from './pipeline/runDrain'
import type { NotificationBacklogResult } from './pipeline/runNotificationBacklog'
import type { OrderBatchResult } from './pipeline/runOrderBatch'
import type { RawLimitResult } from './pipeline/runRawLimit'
import type { SequentialLoopResult } from './pipeline/runSequentialLoop'
import type { SqsDrainResult } from './pipeline/runSqsDrain'
import type { TracingComparison } from './pipeline/runTracingComparison'
import type { CpuProfileSummary } from './profile/summarizeCpuProfile'
import type { PreviousCpuPerOrder } from './report/readPreviousCpuPerOrder'
import type { GroupMemory } from './system/startMemorySampler'
import type { BarListImportResult } from './vault/runBarListImport'

/** The settings of one `npm run bench` (scripts/bench.ts reads them from its arguments). */
export type BenchOptions = {
  /** orders per drain (and transactions of each raw-limit run) */
  orders: number
  signerCounts: number[]
  /** worker processes of the scaling table */
  workerCounts: number[]
  /** clients of the intake runs (the 32; more than one value: one row each) */
  concurrencies: number[]
  intakeSeconds: number
  /** the sequential loop's transactions (one signer: the seed's design, one row) */
  seqTxs: number
  /** the paced run's length at half the measured capacity */
  pacedSeconds: number
  submitConcurrency: number
  noopJobs: number
  /** profile the web (an extra intake run) and the worker (an extra batch) */
  profile: boolean
  /** bars of the bar-list import row (0: not measured) */
  barListBars: number
  /** rows of the audit-export row (0: not measured) */
  auditRows: number
  /** seconds between blocks on anvil */
  blockTime: number
  /**
   * the SQS transport's row: orders of the 1 signer x 1 worker drain
   * on a second stack with QUEUE_TRANSPORT=sqs (0: not measured)
   */
  sqsOrders: number
  /** the tracing comparison: orders of each drain with tracing off and on (0: not measured) */
  tracingOrders: number
  /** redemptions of the burn drain, 1 signer x 1 worker (0: not measured) */
  burns: number
  /** a year of history's scale (1: a million orders; 0: not measured), on a Postgres of its own (bench/history/) */
  historyScale: number
  /** a data directory seeded by an earlier history run, reused (its seed's scale stands); null: a fresh one */
  historyData: string | null
  quick: boolean
}

export type MachineInfo = { cpus: number; cpuModel: string; memoryGb: number; node: string; os: string }

export type WorkerSettings = {
  concurrency: number
  pollMs: number
  confirmPollMs: number
  confirmations: number
  sendBatch: number
}

/** the image's runtime variables of each process (NODE_OPTIONS, MALLOC_ARENA_MAX), as `K=V` words */
export type ReleaseInfo = { sourceHash: string; built: boolean; workerEnv: string; webEnv: string }

export type PacedRun = OrderBatchResult & { capacity: number; perSecond: number }

/**
 * The same path slow enough that each order is a batch of its own and none waits for another: the path's own length,
 * without the queueing of the paced run
 */
export type FloorRun = OrderBatchResult & { perSecond: number }

/**
 * Every figure of one `npm run bench`: the run's setting (filled by runBench) and each run's
 * own fields (filled by the run that measures them: bench/runs/benchRuns.ts lists which).
 * The report (bench/report/renderReport.ts) and the targets (bench/report/evaluateTargets.ts)
 * are drawn from it alone; .data/bench/result.json holds it as JSON.
 */
export type BenchResult = {
  options: BenchOptions
  startedAt: Date
  /** the whole run, stop included: set by the caller (scripts/bench.ts) once runBench returned */
  seconds: number
  machine: MachineInfo
  worker: WorkerSettings
  release: ReleaseInfo
  stackBootSeconds: number
  /** the notifications each run left, sent before the next measured run (one window each) */
  notifications?: NotificationBacklogResult[]
  /** the report this run replaces: its drain CPU per order, shown beside this run's (set by scripts/bench.ts) */
  previous?: PreviousCpuPerOrder

  // the runs' fields (bench/runs/)
  intake: { idle: IntakeRun[]; beside: IntakeRun[] }
  /** the node's raw limit, per signer count of the targets (1 and the most) */
  raw: Array<RawLimitResult & { signers: number }>
  sequential: SequentialLoopResult
  drains: DrainResult[]
  /** the burn drain, 1 signer x 1 worker, beside the mint drains */
  burn?: BurnDrainResult
  paced?: PacedRun
  floor?: FloorRun
  noop?: NoopPickupResult
  /** peaks over everything before the bar-list import (which has its own row) */
  memory: Record<string, GroupMemory>
  profiles: { web?: CpuProfileSummary; worker?: CpuProfileSummary; workerBatch?: OrderBatchResult }
  barListImport?: BarListImportResult
  auditExport?: AuditExportResult
  /** the SQS transport's drain, 1 signer x 1 worker, on its own stack */
  sqs?: SqsDrainResult
  /** the same drain and intake with tracing off and on */
  tracing?: TracingComparison
  /** the admin pages, the reserves and the public lookup after a year of history */
  history?: HistoryResult
}
