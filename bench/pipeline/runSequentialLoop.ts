import type { Address, Hex, LocalAccount, PublicClient } from 'viem'
import { estimateFees } from '../../worker/chain/estimateFees'
import { signTx } from '../../worker/chain/signTx'
import { nowMs } from '../system/clock'
import { type Summary, summarize } from '../system/percentiles'

export type RunSequentialLoopParameters = {
  chain: PublicClient
  chainId: number
  minterAddress: Address
  /** one loop per account, all at once (the seed's "one logical signer per worker") */
  accounts: readonly LocalAccount[]
  txsPerAccount: number
  /** GoldMinter.attestAndMint calldata of baseline orders (buildBaselineCalls), at least accounts x txsPerAccount */
  calls: readonly Hex[]
  gas: bigint
  /** how often a loop asks for its receipt */
  pollMs: number
}

export type SequentialLoopResult = { txs: number; seconds: number; perSecond: number; perTx: Summary }

/**
 * The seed's worker (seeds/000) relaying the signed mints (GoldMinter.attestAndMint, calldata
 * built beforehand): for each transaction, read the fees, sign through KMS,
 * eth_sendRawTransaction, wait for the receipt, and only then the next one. With k
 * signers, k such loops run side by side, one per key. The rate is transactions
 * confirmed over the wall time of the slowest loop.
 */
export async function runSequentialLoop(p: RunSequentialLoopParameters): Promise<SequentialLoopResult> {
  if (p.calls.length < p.accounts.length * p.txsPerAccount)
    throw new Error(`sequential loop: ${p.calls.length} calls for ${p.accounts.length * p.txsPerAccount} transactions`)
  const perTx: number[] = []
  const started = nowMs()
  let i = 0
  await Promise.all(
    p.accounts.map(async (account) => {
      let nonce = BigInt(await p.chain.getTransactionCount({ address: account.address, blockTag: 'pending' }))
      for (let n = 0; n < p.txsPerAccount; n++) {
        const t0 = nowMs()
        const fees = await estimateFees(p.chain)
        const { raw, hash } = await signTx(account, {
          chainId: p.chainId,
          nonce,
          to: p.minterAddress,
          data: p.calls[i++] as Hex,
          gas: p.gas,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        })
        await p.chain.request({ method: 'eth_sendRawTransaction', params: [raw] })
        const receipt = await p.chain.waitForTransactionReceipt({ hash, pollingInterval: p.pollMs, timeout: 60_000 })
        if (receipt.status !== 'success') throw new Error(`sequential loop: ${hash} reverted`)
        nonce++
        perTx.push(nowMs() - t0)
      }
    }),
  )
  const seconds = (nowMs() - started) / 1000
  return { txs: perTx.length, seconds, perSecond: perTx.length / seconds, perTx: summarize(perTx) }
}
