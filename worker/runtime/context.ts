import type { Address, LocalAccount, PublicClient } from 'viem'
import type { Db } from '@/db/client'
import type { Config } from '@/lib/config/loadConfig'
import type { NotifyContext } from '@/worker/notifications/NotifyContext'
import type { Failpoint } from './failpoints'
import type { WorkerLogger } from './logger'

/** A signing key this worker holds: the KMS key and the viem account signing through it. */
export type SignerAccount = {
  address: Address
  keyId: string
  account: LocalAccount
}

/** What the chain node is: anvil has test-only methods (anvil_dropAllTransactions). */
export type NodeInfo = { clientVersion: string; isAnvil: boolean }

/** Everything a task needs, built once per worker process (worker/runtime/startWorker.ts). */
export type WorkerContext = {
  db: Db
  chain: PublicClient
  chainId: number
  tokenAddress: Address
  /** GoldMinter (MINTER_ADDRESS): the sole holder of the token's roles; mints are relayed to it */
  minterAddress: Address
  /**
   * TOKEN_DEPLOY_BLOCK: no event of the desk's contracts is older; the chain followers without a cursor start
   * here (worker/db/readCursorStart.ts)
   */
  deployBlock: bigint
  confirmations: number
  /** by checksummed address */
  signers: ReadonlyMap<Address, SignerAccount>
  settings: Config['worker']
  log: WorkerLogger
  /** this process's graphile-worker pool id: the `locked_by` of its jobs and the actor of its events */
  workerId: () => string
  failpoint: Failpoint
  node: () => Promise<NodeInfo>
  /** webhooks and email: their settings and production (the SSRF guard) */
  notify: NotifyContext
  /**
   * Has this process look for jobs at `at` (graphile-worker's workerPool.nudge): a job
   * committed to run later is otherwise found only by the next poll (WORKER_POLL_MS), and
   * its NOTIFY came when it was not due yet. Call it after the commit that scheduled it.
   */
  wakeAt: (at: Date) => void
  /**
   * whether every job slot of this process (WORKER_CONCURRENCY) is running a job and at
   * least half of them are confirmer runs: those then make way, or sends (a retry filling
   * their own nonce gap) could wait behind them for good
   */
  crowdedByConfirmers: () => boolean
  /**
   * this process cannot go on: the entry point logs the error and
   * exits non-zero (the stale-worker sweep then hands its jobs back)
   */
  fatal: (error: Error) => void
}
