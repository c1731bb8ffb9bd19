import type postgres from 'postgres'
import type { Address, LocalAccount, PublicClient } from 'viem'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { createMinterReader } from '../../lib/web/approvals/MinterReader'
import { nowMs } from '../system/clock'
import type { CpuUsage } from '../system/startCpuMeter'
import type { CpuTimeline } from '../system/startCpuTimeline'
import { activateSigners } from './activateSigners'
import { createBenchRedemptions } from './createBenchRedemptions'
import type { RedemptionApprover } from './createRedemptionApprover'
import { listOrderTimings } from './listOrderTimings'
import { type OrderLatencies, orderLatencies } from './orderStages'
import { seedRedemptionDeposits } from './seedRedemptionDeposits'
import { waitForDeposits } from './waitForDeposits'
import { waitForOrders } from './waitForOrders'

export type BurnDrainResult = {
  /** redemptions created, signed and queued */
  redemptions: number
  burned: number
  /** the setup before the approvals (mints, deposits, the deposits seen, the requests), not measured */
  setupSeconds: number
  /** filling the queue: first approval sent -> last answered, and the CPU of that window (the web's checks) */
  approval: { seconds: number; perSecond: number; cpu: CpuUsage }
  /** first job event of the batch after its `enqueued` rows (a worker took a redemption) -> its last `confirmed` */
  seconds: number
  burnedPerSecond: number
  byStatus: Record<string, number>
  settled: boolean
  /** CPU per process group over the drain's window (the worker's start before its first job left out) */
  cpu: CpuUsage
  failures: number
  latencies: OrderLatencies
  /** GoldToken.totalSupply right before the worker starts and after the drain */
  supply: { beforeWei: bigint; afterWei: bigint }
  /** what the holders sent to the redemption address, summed */
  depositedWei: bigint
}

export type RunBurnDrainParameters = {
  sql: postgres.Sql
  chain: PublicClient
  rpcUrl: string
  chainId: number
  tokenAddress: Address
  minterAddress: Address
  /** accounts with gas money that hold the mints and send the deposits */
  holders: readonly LocalAccount[]
  /** redemptions of the run */
  burns: number
  /** the staff user who requests the redemptions */
  staff: { id: string; email: string }
  approver: RedemptionApprover
  approveConcurrency: number
  /** the worker's signers, in key order: the first is the only one active */
  workerSigners: readonly string[]
  /** starts one worker process (resolves once it registered), stops them all */
  startWorker: () => Promise<unknown>
  stopWorkers: () => Promise<void>
  timeline: CpuTimeline
  timeoutMs: number
  log: (line: string) => void
}

/**
 * The burn drain, measured as the 1 signer x 1 worker mint drain is (runDrain). Setup, with no worker running at
 * first: `burns` confirmed mints to the holders and a deposit of each back to the redemption address
 * (seedRedemptionDeposits); one worker runs until its deposit_watch has recorded them all and is stopped; a
 * redemption per deposit, one bar each (createBenchRedemptions). Then the approvers sign every redemption through the
 * approve endpoint (the queue fills: the approvals' window and CPU are kept, as a mint drain's are), and one worker
 * with one signer active starts; the clock runs from the first job event of the batch to its last `confirmed` event
 * (the redemption's `burned`, in the same transaction), and CPU is charged to the burns over exactly that window,
 * per process group. The worker is stopped at the end: the next run starts from an idle stack.
 */
export async function runBurnDrain(p: RunBurnDrainParameters): Promise<BurnDrainResult> {
  const t0 = nowMs()
  const minter = createMinterReader({ client: p.chain, chainId: p.chainId, minterAddress: p.minterAddress })
  const holders = p.holders.map((h) => h.address)
  const seeded = await seedRedemptionDeposits(p.sql, {
    chain: p.chain,
    rpcUrl: p.rpcUrl,
    chainId: p.chainId,
    tokenAddress: p.tokenAddress,
    minterAddress: p.minterAddress,
    holders: p.holders,
    count: p.burns,
    label: `BURN${Date.now().toString(36)}`,
  })
  try {
    await p.startWorker()
    await waitForDeposits(p.sql, { holders, count: p.burns, timeoutMs: Math.max(60_000, p.burns * 200) })
  } finally {
    await p.stopWorkers()
  }
  await activateSigners(p.sql, { addresses: p.workerSigners.slice(0, 1) })
  const { redemptionIds: ids } = await createBenchRedemptions(p.sql, {
    holders,
    orderIds: seeded.orderIds,
    staff: p.staff,
    minter,
    concurrency: 4,
  })
  const setupSeconds = (nowMs() - t0) / 1000
  p.log(`burn drain: ${ids.length} redemptions requested in ${setupSeconds.toFixed(1)} s of setup (not measured)`)

  const approvalStart = nowMs()
  await p.approver.approveAll(ids, p.approveConcurrency)
  const approvalEnd = nowMs()
  const approvalSeconds = (approvalEnd - approvalStart) / 1000
  const approval = {
    seconds: approvalSeconds,
    perSecond: ids.length / Math.max(approvalSeconds, 1e-9),
    cpu: p.timeline.between(approvalStart, approvalEnd),
  }

  const supply = () => p.chain.readContract({ address: p.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  const beforeWei = await supply()
  let waited: Awaited<ReturnType<typeof waitForOrders>>
  try {
    await p.startWorker()
    waited = await waitForOrders({ sql: p.sql, orderIds: ids, timeoutMs: p.timeoutMs, operation: 'redemption' })
  } finally {
    await p.stopWorkers()
  }
  const afterWei = await supply()
  const timings = await listOrderTimings(p.sql, { orderIds: ids, operation: 'redemption' })
  const start = timings.reduce((a, t) => Math.min(a, t.firstWork ?? Number.POSITIVE_INFINITY), Number.POSITIVE_INFINITY)
  const end = timings.reduce((a, t) => Math.max(a, t.confirmed ?? 0), 0)
  const burned = waited.byStatus.burned ?? 0
  const seconds = Number.isFinite(start) && end > start ? (end - start) / 1000 : NaN
  const result: BurnDrainResult = {
    redemptions: ids.length,
    burned,
    setupSeconds,
    approval,
    seconds,
    burnedPerSecond: Number.isFinite(seconds) ? burned / seconds : 0,
    byStatus: waited.byStatus,
    settled: waited.settled,
    cpu: p.timeline.between(Number.isFinite(start) ? start : approvalEnd, end || Date.now()),
    failures: timings.reduce((a, t) => a + t.failures, 0),
    latencies: orderLatencies(timings),
    supply: { beforeWei, afterWei },
    depositedWei: seeded.depositedWei,
  }
  p.log(
    `burn drain 1 signer x 1 worker: ${burned}/${ids.length} burned in ${seconds.toFixed(1)} s = ${result.burnedPerSecond.toFixed(1)}/s` +
      ` (approvals ${approval.perSecond.toFixed(0)}/s) ${JSON.stringify(waited.byStatus)}`,
  )
  return result
}
