import type { Address, Hex, LocalAccount, PublicClient } from 'viem'
import { signTx } from '../../worker/chain/signTx'
import { nowMs, sleep } from '../system/clock'

export type RunRawLimitParameters = {
  chain: PublicClient
  rpcUrl: string
  chainId: number
  minterAddress: Address
  /** the transactions' target: GoldMinter by default (the burn drain's setup sends token transfers) */
  to?: Address
  /** the transactions are spread over these signers round-robin */
  accounts: readonly LocalAccount[]
  /** one transaction each: GoldMinter.attestAndMint calldata of a baseline order (buildBaselineCalls) */
  calls: readonly Hex[]
  gas: bigint
}

export type RawLimitResult = {
  txs: number
  /** first send -> last transaction accepted by the node */
  sendSeconds: number
  /** first send -> every transaction included in a block */
  seconds: number
  perSecond: number
  blocks: number
  gasPerTx: bigint
  blockGasLimit: bigint
  /** what the block gas limit alone allows per block: blockGasLimit / gasPerTx */
  txsPerBlockByGas: number
}

const BATCH = 100
const PARALLEL_BATCHES = 4

/**
 * The node's own limit for these transactions: the mints the worker relays (GoldMinter.attestAndMint
 * with the order's approvals and its vault's custodian-signed list, which the chain checks), signed beforehand
 * (through KMS, not timed), then, starting right after a block was mined, sent raw as
 * fast as the node takes them (JSON-RPC batches of 100, 4 in flight) and timed until every
 * one is included in a block (the signers' `latest` nonces, polled every 20 ms). Fees are set high enough that a
 * rising base fee cannot strand any of them.
 */
export async function runRawLimit(p: RunRawLimitParameters): Promise<RawLimitResult> {
  const k = p.accounts.length
  const txs = p.calls.length
  const nonce0 = await Promise.all(
    p.accounts.map((a) => p.chain.getTransactionCount({ address: a.address, blockTag: 'pending' })),
  )
  const [block, tip] = await Promise.all([
    p.chain.getBlock({ blockTag: 'latest' }),
    p.chain.estimateMaxPriorityFeePerGas(),
  ])
  const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 8n + tip

  const raws: Hex[] = new Array(txs)
  const hashes: Hex[] = new Array(txs)
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < txs) {
        const j = next++
        const account = p.accounts[j % k] as LocalAccount
        const { raw, hash } = await signTx(account, {
          chainId: p.chainId,
          nonce: BigInt((nonce0[j % k] as number) + Math.floor(j / k)),
          to: p.to ?? p.minterAddress,
          data: p.calls[j] as Hex,
          gas: p.gas,
          maxFeePerGas,
          maxPriorityFeePerGas: tip,
        })
        raws[j] = raw
        hashes[j] = hash
      }
    }),
  )

  // start right after a block: the time to inclusion is then whole block intervals, not
  // whatever was left of the current one
  await nextBlock(p.chain)
  const started = nowMs()
  let batchIndex = 0
  const batches = Math.ceil(txs / BATCH)
  await Promise.all(
    Array.from({ length: PARALLEL_BATCHES }, async () => {
      while (batchIndex < batches) {
        const b = batchIndex++
        await sendBatch(p.rpcUrl, raws.slice(b * BATCH, (b + 1) * BATCH))
      }
    }),
  )
  const sent = nowMs()

  const expected = p.accounts.map((_, i) => (nonce0[i] as number) + Math.floor(txs / k) + (i < txs % k ? 1 : 0))
  const deadline = sent + 120_000
  for (;;) {
    const counts = await Promise.all(
      p.accounts.map((a) => p.chain.getTransactionCount({ address: a.address, blockTag: 'latest' })),
    )
    if (counts.every((c, i) => c >= (expected[i] as number))) break
    if (nowMs() > deadline) throw new Error('raw limit: transactions not included within 120 s')
    await sleep(20)
  }
  const included = nowMs()
  // the blocks that hold them, from the receipts of the first and the last sent
  const [firstReceipt, lastReceipt] = await Promise.all([
    p.chain.getTransactionReceipt({ hash: hashes[0] as Hex }),
    p.chain.getTransactionReceipt({ hash: hashes[txs - 1] as Hex }),
  ])
  if (firstReceipt.status !== 'success' || lastReceipt.status !== 'success')
    throw new Error('raw limit: a mint reverted (GoldMinter refused it)')
  const last = await p.chain.getBlock({ blockNumber: lastReceipt.blockNumber })
  return {
    txs,
    sendSeconds: (sent - started) / 1000,
    seconds: (included - started) / 1000,
    perSecond: txs / ((included - started) / 1000),
    blocks: Number(lastReceipt.blockNumber - firstReceipt.blockNumber) + 1,
    gasPerTx: lastReceipt.gasUsed,
    blockGasLimit: last.gasLimit,
    txsPerBlockByGas: lastReceipt.gasUsed > 0n ? Number(last.gasLimit / lastReceipt.gasUsed) : 0,
  }
}

async function nextBlock(chain: PublicClient): Promise<bigint> {
  const current = await chain.getBlockNumber()
  for (;;) {
    const n = await chain.getBlockNumber()
    if (n > current) return n
    await sleep(5)
  }
}

async function sendBatch(rpcUrl: string, raws: readonly Hex[]): Promise<void> {
  const body = raws.map((raw, id) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] }))
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answers = (await res.json()) as Array<{ id: number; error?: { message: string } }> // JSON-RPC batch answer
  const failed = answers.filter((a) => a.error)
  if (failed.length > 0)
    throw new Error(`raw limit: the node refused ${failed.length} transactions: ${failed[0]?.error?.message}`)
}
