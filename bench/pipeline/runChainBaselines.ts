import type postgres from 'postgres'
import type { Address, PublicClient } from 'viem'
import { prepareMint } from '../prepareMint'
import { backBaselineMints } from './backBaselineMints'
import { buildBaselineCalls } from './buildBaselineCalls'
import { createBaselineSigners } from './createBaselineSigners'
import { type RawLimitResult, runRawLimit } from './runRawLimit'
import { runSequentialLoop, type SequentialLoopResult } from './runSequentialLoop'

export type RunChainBaselinesParameters = {
  sql: postgres.Sql
  chain: PublicClient
  chainId: number
  rpcUrl: string
  tokenAddress: Address
  minterAddress: Address
  kmsEndpoint: string
  recipients: readonly Address[]
  /** the raw limit runs with 1 and with this many signers */
  maxSigners: number
  /** transactions of each raw-limit run */
  orders: number
  /** transactions of the sequential loop */
  seqTxs: number
  log: (line: string) => void
}

export type ChainBaselinesResult = {
  /** the node's raw limit, per signer count (1 and the most) */
  raw: Array<RawLimitResult & { signers: number }>
  sequential: SequentialLoopResult
}

/**
 * The chain's baselines with keys of their own (createBaselineSigners: relayers holding no role): the node's raw
 * limit and the seed's sequential loop, both relaying GoldMinter.attestAndMint calls of approved baseline orders
 * (backBaselineMints) built as the worker builds them (buildBaselineCalls). The first call, alone and not timed,
 * attests the baselines' list; the timed ones find it on chain, as a vault's mints after its first do.
 */
export async function runChainBaselines(p: RunChainBaselinesParameters): Promise<ChainBaselinesResult> {
  const { sql, chain, chainId, rpcUrl, tokenAddress, minterAddress, recipients, maxSigners } = p
  const baseline = await createBaselineSigners({
    kmsEndpoint: p.kmsEndpoint,
    rpcUrl,
    chainId,
    tokenAddress,
    minterAddress,
    count: maxSigners,
  })
  const first = baseline.accounts[0]
  if (!first) throw new Error('no baseline signer')
  const rawSigners = [...new Set([1, maxSigners])]
  // one mint more than the timed ones: the first, alone, attests the baselines' list
  const backed = await backBaselineMints(sql, {
    label: Date.now().toString(36),
    mints: 1 + rawSigners.length * p.orders + p.seqTxs,
    recipients,
    domain: { chainId, verifyingContract: minterAddress },
  })
  const [attesting, ...calls] = await buildBaselineCalls(sql, {
    chain,
    chainId,
    minterAddress,
    orderIds: backed.orderIds,
  })
  if (!attesting || !calls[0]) throw new Error('no baseline calls')
  let taken = 0
  const take = (n: number) => {
    const slice = calls.slice(taken, taken + n)
    taken += n
    return slice
  }
  const raw: ChainBaselinesResult['raw'] = []
  let sequential: SequentialLoopResult
  try {
    const chainArgs = { chain, chainId, minterAddress }
    await runSequentialLoop({
      ...chainArgs,
      accounts: [first],
      txsPerAccount: 1,
      calls: [attesting],
      gas: (await prepareMint(chain, { minterAddress, from: first.address, data: attesting })).gas,
      pollMs: 50,
    })
    // the timed mints find the list on chain, as a vault's mints after its first do
    const { gas } = await prepareMint(chain, { minterAddress, from: first.address, data: calls[0] })
    for (const k of rawSigners) {
      const r = await runRawLimit({
        ...chainArgs,
        rpcUrl,
        accounts: baseline.accounts.slice(0, k),
        calls: take(p.orders),
        gas,
      })
      raw.push({ ...r, signers: k })
      p.log(`node raw limit, ${k} signer(s): ${r.perSecond.toFixed(0)} tx/s (${r.txs} txs in ${r.blocks} blocks)`)
    }
    sequential = await runSequentialLoop({
      ...chainArgs,
      accounts: [first],
      txsPerAccount: p.seqTxs,
      calls: take(p.seqTxs),
      gas,
      pollMs: 50,
    })
    p.log(`sequential loop: ${sequential.perSecond.toFixed(2)} tx/s`)
  } finally {
    baseline.close()
  }
  return { raw, sequential }
}
