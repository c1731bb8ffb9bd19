import { runChainBaselines } from '../pipeline/runChainBaselines'
import type { BenchRun } from './BenchRun'

/**
 * The chain's baselines with keys of their own: the node's raw limit (1 signer and the most), the seed's sequential
 * loop. Their table is in section 1 (renderDrains draws it), the drains' yardstick.
 */
export const chainBaselinesRun: BenchRun<'raw' | 'sequential'> = {
  name: 'chain baselines',
  section: 1.1,
  stack: 'main',
  enabled: () => true,
  run: async (ctx) =>
    runChainBaselines({
      sql: ctx.sql,
      chain: ctx.chain.client,
      chainId: ctx.chain.chainId,
      rpcUrl: ctx.chain.rpcUrl,
      tokenAddress: ctx.chain.tokenAddress,
      minterAddress: ctx.chain.minterAddress,
      kmsEndpoint: ctx.chain.kmsEndpoint,
      recipients: ctx.chain.recipients,
      maxSigners: Math.max(...ctx.options.signerCounts),
      orders: ctx.options.orders,
      seqTxs: ctx.options.seqTxs,
      log: ctx.log,
    }),
  method: [
    "Node's raw limit: the same `GoldMinter.attestAndMint` call (approved baseline orders, the custodian-signed list) signed beforehand by keys of the bench's own (no role, funded like the worker's), sent in JSON-RPC batches of 100 right after a block, timed until every signer's `latest` nonce shows them all included (polled every 20 ms): it moves in steps of one block.",
  ],
}
