import type postgres from 'postgres'
import type { Address, PublicClient } from 'viem'
import type { SessionToCheck } from '../../lib/web/auth/ClaimedSessionUser'
import type { BenchOptions, BenchResult } from '../BenchResult'
import type { JsonPoster } from '../http/createJsonPoster'
import type { HttpSession } from '../http/signIn'
import type { MintBodies } from '../intake/createMintBodies'
import type { OrderApprover } from '../pipeline/createOrderApprover'
import type { TargetResult } from '../report/evaluateTargets'
import type { BenchStack } from '../stack/startBenchStack'
import type { CpuTimeline } from '../system/startCpuTimeline'
import type { MemorySampler } from '../system/startMemorySampler'

/** What a run on its own stack gets: it boots that stack itself (after the main one stopped) and stops it. */
export type BenchSetup = { root: string; options: BenchOptions; log: (line: string) => void }

/** What every run of the main stack shares (bench/stack/openMainStack.ts builds it, once). */
export type MainStackContext = BenchSetup & {
  stack: BenchStack
  /** the stack's database as its admin (two connections) */
  sql: postgres.Sql
  /** the dev staff user, signed in: the intake's and the drains' client */
  staff: { id: string; email: string; session: HttpSession; sessionToCheck: SessionToCheck }
  /** the bars and request bodies of every mint order the runs send (their mintBodies, together) */
  bodies: MintBodies
  chain: {
    client: PublicClient
    chainId: number
    rpcUrl: string
    tokenAddress: Address
    minterAddress: Address
    kmsEndpoint: string
    /** addresses the mints go to */
    recipients: readonly Address[]
  }
  /** the worker's KMS signers, in key order (a run activates the first N) */
  workerSigners: readonly Address[]
  /** posts the staff's requests (keep-alive) */
  poster: JsonPoster
  /** the dev approvers, signing each order's MintIntent through the approve endpoint */
  approver: OrderApprover
  /** CPU of every process group from the stack's start, cut to a run's window afterwards */
  timeline: CpuTimeline
  /** peak memory of every process group, until the memory run takes the peaks */
  memory: MemorySampler
  /** the runs' figures so far (the paced run reads the drains'; the intake beside the worker adds to the idle's) */
  measured: Partial<BenchResult>
  /**
   * A worker (one started for the purpose when none runs, stopped after) sends the notifications the runs before
   * left, timed and metered as one window of `notifications`, so that the next measured run does not share the
   * machine with them.
   */
  sendNotifications: (leftBy: string) => Promise<void>
  /**
   * When a worker still runs (the paced run leaves its own to the runs after it), it sends the notifications left,
   * then stops.
   */
  settleWorkers: (leftBy: string) => Promise<void>
}

/** One section's drawing: the whole result to read, and the Markdown writer's two calls. */
export type RenderSectionParameters = {
  result: BenchResult
  line: (s?: string) => void
  table: (head: string[], rows: string[][]) => void
}

type RunParts = {
  /** what the log calls it */
  name: string
  /**
   * Its place in the report: the number of the section it draws (5.5 draws 5b; a run drawn inside another's section
   * takes a number just after it). Its targets and method lines come in the same order. From APPENDIX on, after the
   * notes on missed targets.
   */
  section: number
  /** whether this bench measures it (its orders, rows or seconds are more than 0) */
  enabled: (options: BenchOptions) => boolean
  /** mint orders it sends through the shared bodies (runs of the main stack): the stack stocks that many bars first */
  mintBodies?: (options: BenchOptions) => number
  /** its section of docs/benchmarks.md, called whether it ran or not (then: "Not measured in this run.") */
  render?: (p: RenderSectionParameters) => void
  /** its rows of the Targets table: PASS/MISS against a threshold, or a figure reported */
  targets?: (result: BenchResult) => TargetResult[]
  /** how its numbers are measured: lines of the report's last section */
  method?: readonly string[]
}

/**
 * One measured run of `npm run bench`: it fills the fields `Field` of BenchResult, draws its section of the report and
 * gives its rows of the Targets table. The runs are listed in bench/runs/benchRuns.ts, in the order they run.
 * A run of the main stack runs on the stack every run shares, in the list's order; a run on its own stack runs after
 * the main stack stopped, so that two stacks never share the machine.
 *
 * @example
 * export const noopPickupRun: BenchRun<'noop'> = {
 *   name: 'no-op pickup', section: 2.1, stack: 'main',
 *   enabled: (o) => o.noopJobs > 0,
 *   run: async (ctx) => ({ noop: await runNoopPickup({ ... }) }),
 * }
 */
export type BenchRun<Field extends keyof BenchResult> = RunParts &
  (
    | { stack: 'main'; run: (ctx: MainStackContext) => Promise<Pick<BenchResult, Field>> }
    | { stack: 'own'; run: (setup: BenchSetup) => Promise<Pick<BenchResult, Field>> }
  )

/** Any run of the list, whatever fields it fills (the runner merges them into the result). */
export type SomeBenchRun = BenchRun<never>

/** Sections from this number on come after the notes on missed targets (the CPU profiles). */
export const APPENDIX = 100
