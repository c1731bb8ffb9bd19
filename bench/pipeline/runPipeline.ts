import type postgres from 'postgres'
import type { Address, LocalAccount, PublicClient } from 'viem'
import type { JsonPoster } from '../http/createJsonPoster'
import type { MintBodies } from '../intake/createMintBodies'
import type { ProcessGroupsSource } from '../system/processGroups'
import { activateSigners } from './activateSigners'
import { backBaselineMints } from './backBaselineMints'
import { type OrderBatchResult, runOrderBatch } from './runOrderBatch'
import { type RawLimitResult, runRawLimit } from './runRawLimit'
import { runSequentialLoop, type SequentialLoopResult } from './runSequentialLoop'

export type PipelineRun = {
  signers: number
  sequential: SequentialLoopResult
  raw: RawLimitResult
  burst: OrderBatchResult
  paced: OrderBatchResult
}

export type RunPipelineParameters = {
  sql: postgres.Sql
  chain: PublicClient
  rpcUrl: string
  chainId: number
  tokenAddress: Address
  /** the worker's signers, in key order; the first `signers` are activated */
  workerSigners: readonly Address[]
  /** the baselines' own signers (createBaselineSigners) */
  baselineAccounts: readonly LocalAccount[]
  signers: number
  orders: number
  seqPerSigner: number
  /** the paced batch: at most `perSecond`, and at most half the burst's rate (below capacity) */
  paced: { orders: number; perSecond: number }
  submitConcurrency: number
  recipients: readonly Address[]
  amountWei: bigint
  gas: bigint
  poster: JsonPoster
  bodies: MintBodies
  groups: ProcessGroupsSource
  log: (line: string) => void
}

/**
 * Section 2 for one signer count: the seed's sequential loop and the node's raw limit
 * with that many keys, then mintdesk itself: N orders at once through the API
 * (throughput), then a paced batch at half that rate at most, below capacity (latency,
 * queue pickup).
 */
export async function runPipeline(p: RunPipelineParameters): Promise<PipelineRun> {
  const accounts = p.baselineAccounts.slice(0, p.signers)
  await activateSigners(p.sql, { addresses: p.workerSigners.slice(0, p.signers) })
  const chainArgs = { chain: p.chain, chainId: p.chainId, tokenAddress: p.tokenAddress, accounts, recipients: p.recipients, amountWei: p.amountWei, gas: p.gas }

  const sequential = await runSequentialLoop({ ...chainArgs, txsPerAccount: p.seqPerSigner, pollMs: 50 })
  p.log(`pipeline ${p.signers} signer(s): sequential loop ${sequential.perSecond.toFixed(2)} tx/s (${sequential.txs} txs, p50 ${sequential.perTx.p50.toFixed(0)} ms each)`)
  const raw = await runRawLimit({ ...chainArgs, rpcUrl: p.rpcUrl, txs: p.orders })
  p.log(`pipeline ${p.signers} signer(s): node raw limit ${raw.perSecond.toFixed(1)} tx/s (${raw.txs} txs in ${raw.blocks} blocks, sent in ${raw.sendSeconds.toFixed(2)} s)`)

  // the baselines' tokens get bars behind them, or the worker would refuse to mint more
  await backBaselineMints(p.sql, { label: `${Date.now().toString(36)}-${p.signers}`, mints: accounts.length * p.seqPerSigner + p.orders, amountWei: p.amountWei })

  const timeoutMs = Math.max(120_000, p.orders * 500)
  const burst = await runOrderBatch({
    sql: p.sql,
    poster: p.poster,
    bodies: p.bodies,
    count: p.orders,
    mode: { kind: 'burst', concurrency: p.submitConcurrency },
    timeoutMs,
    groups: p.groups,
  })
  p.log(
    `pipeline ${p.signers} signer(s): ${burst.submitted} orders, ${burst.confirmedPerSecond.toFixed(1)} confirmed/s, ` +
      `enqueued->broadcast p50 ${burst.toBroadcast.p50.toFixed(0)} ms p99 ${burst.toBroadcast.p99.toFixed(0)} ms, ` +
      `->confirmed p50 ${burst.toConfirmed.p50.toFixed(0)} ms p99 ${burst.toConfirmed.p99.toFixed(0)} ms ${JSON.stringify(burst.byStatus)}`,
  )
  const perSecond = Math.max(1, Math.min(p.paced.perSecond, Math.floor(burst.confirmedPerSecond / 2)))
  const paced = await runOrderBatch({
    sql: p.sql,
    poster: p.poster,
    bodies: p.bodies,
    count: p.paced.orders,
    mode: { kind: 'paced', perSecond },
    timeoutMs,
    groups: p.groups,
  })
  p.log(
    `pipeline ${p.signers} signer(s), paced ${perSecond}/s: enqueued->broadcast p50 ${paced.toBroadcast.p50.toFixed(1)} ms p99 ${paced.toBroadcast.p99.toFixed(1)} ms, ` +
      `pickup p50 ${paced.pickup.p50.toFixed(1)} ms p99 ${paced.pickup.p99.toFixed(1)} ms`,
  )
  return { signers: p.signers, sequential, raw, burst, paced }
}
