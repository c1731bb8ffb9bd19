import { sql } from 'drizzle-orm'
import {
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { buildMintIntent } from '@/lib/mint/buildMintIntent'
import { StoredTxMismatchError } from '@/worker/errors/chain'
import { listOrderBars } from '../db/listOrderBars'
import type { ChainTx } from '../db/listOrderTxs'
import { readMintOrderRow } from '../db/readMintOrderRow'
import type { WorkerContext } from '../runtime/context'

export type VerifyStoredTxParameters = {
  /** the stored transaction about to be sent again, or replaced */
  tx: ChainTx
}

export type VerifyStoredTxReturnType = {
  /** the stored calldata, its intent checked against the order (mint kinds), or empty (a gap fill) */
  data: Hex
}

/**
 * Before the worker sends stored bytes again or signs a replacement from them, it
 * re-derives what they must be and compares (docs/architecture.md invariant 7): the raw
 * transaction must be signed by the signer its row names, one the worker registered
 * (`signers`, which the web cannot write), for this chain, at the row's nonce; a mint or
 * replacement goes to GoldMinter as attestAndMint whose intent is exactly the order's
 * MintIntent rebuilt from the order and its bars (buildMintIntent: id, recipient, the bars'
 * fine weight and hash, the deadline); the signatures in it were verified when it was
 * first signed, and the contract verifies them again; a gap fill is a zero-value self-transfer. Anything else is a
 * StoredTxMismatchError (permanent): the bytes are never sent.
 */
export async function verifyStoredTx(
  ctx: Pick<WorkerContext, 'db' | 'chainId' | 'minterAddress'>,
  { tx }: VerifyStoredTxParameters,
): Promise<VerifyStoredTxReturnType> {
  const refuse = (detail: string): never => {
    throw new StoredTxMismatchError(`${tx.hash}: ${detail}`)
  }
  let parsed: ReturnType<typeof parseTransaction>
  let signer: string
  try {
    parsed = parseTransaction(tx.rawTx)
    // parseTransaction just accepted these bytes as a signed transaction of a known type
    signer = await recoverTransactionAddress({ serializedTransaction: tx.rawTx as TransactionSerialized })
  } catch (error) {
    throw new StoredTxMismatchError(
      `${tx.hash}: the raw transaction does not decode (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      { cause: error },
    )
  }
  if (!isAddress(tx.signerAddress, { strict: false }) || getAddress(signer) !== getAddress(tx.signerAddress))
    refuse(`signed by ${signer}, not by ${tx.signerAddress}`)
  const [registered] = await ctx.db.execute<{ one: number }>(
    sql`select 1 as one from signers where lower(address) = ${signer.toLowerCase()}`,
  )
  if (!registered) refuse(`signed by ${signer}, which is not one of our signers`)
  if (parsed.chainId !== ctx.chainId) refuse(`for chain ${parsed.chainId}, not ${ctx.chainId}`)
  if (parsed.nonce === undefined || BigInt(parsed.nonce) !== tx.nonce) refuse(`nonce ${parsed.nonce}, not ${tx.nonce}`)
  if ((parsed.value ?? 0n) !== 0n) refuse(`it carries value ${parsed.value}`)

  if (tx.kind === 'gap_fill') {
    if (!parsed.to || getAddress(parsed.to) !== getAddress(signer) || (parsed.data ?? '0x') !== '0x')
      refuse('a gap fill that is not a zero-value self-transfer')
    return { data: '0x' }
  }
  const order = tx.orderId === null ? undefined : await readMintOrderRow(ctx.db, { orderId: tx.orderId })
  if (!order) return refuse(`its order ${tx.orderId ?? '(none)'} does not exist`)
  if (!isAddress(order.toAddress, { strict: false }))
    refuse(`the order's recipient ${order.toAddress} is not an address`)
  const bars = await ctx.db.transaction((t) => listOrderBars(t, { orderId: order.id }))
  const expected = buildMintIntent({
    orderId: order.id,
    to: order.toAddress,
    bars: bars.filter((b) => b.ofOrder),
    deadline: order.intentDeadline,
  })
  if (!parsed.to || getAddress(parsed.to) !== getAddress(ctx.minterAddress))
    refuse(`sent to ${parsed.to ?? 'nobody'}, not to the minter ${ctx.minterAddress}`)
  const data = parsed.data ?? '0x'
  let intent: typeof expected | undefined
  try {
    const call = decodeFunctionData({ abi: goldMinterAbi, data })
    if (call.functionName === 'attestAndMint') intent = call.args[3]
  } catch {
    intent = undefined
  }
  if (
    !intent ||
    intent.orderId.toLowerCase() !== expected.orderId ||
    getAddress(intent.to) !== expected.to ||
    intent.amount !== expected.amount ||
    intent.barsHash.toLowerCase() !== expected.barsHash.toLowerCase() ||
    intent.deadline !== expected.deadline
  )
    refuse(
      "its calldata is not attestAndMint of the order's intent (id, recipient, its bars' amount and hash, deadline)",
    )
  return { data }
}
