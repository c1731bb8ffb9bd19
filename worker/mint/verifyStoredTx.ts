import { sql } from 'drizzle-orm'
import {
  getAddress,
  type Hex,
  isAddress,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from 'viem'
import { StoredTxMismatchError } from '@/worker/errors/chain'
import type { ChainTx } from '../db/listOrderTxs'
import type { StoredCallContext } from '../operations/OperationKind'
import { operationIdOf } from '../operations/operationColumns'
import { operationKinds } from '../operations/operationKinds'

export type VerifyStoredTxParameters = {
  /** the stored transaction about to be sent again, or replaced */
  tx: ChainTx
}

export type VerifyStoredTxReturnType = {
  /** the stored calldata, checked against its operation by the operation's kind, or empty (a gap fill) */
  data: Hex
}

/**
 * Before the worker sends stored bytes again or signs a replacement from them, it
 * re-derives what they must be and compares (docs/architecture.md invariant 7): the raw
 * transaction must be signed by the signer its row names, one the worker registered
 * (`signers`, which the web cannot write), for this chain, at the row's nonce; an operation's
 * call or its replacement goes to GoldMinter, its calldata exactly the operation's call as its
 * kind re-derives it (checkStoredCall; a mint's: attestAndMint of the order's MintIntent); a gap
 * fill is a zero-value self-transfer. Anything else is a StoredTxMismatchError (permanent): the
 * bytes are never sent.
 */
export async function verifyStoredTx(
  ctx: StoredCallContext,
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
  if (!parsed.to || getAddress(parsed.to) !== getAddress(ctx.minterAddress))
    refuse(`sent to ${parsed.to ?? 'nobody'}, not to the minter ${ctx.minterAddress}`)
  const data = parsed.data ?? '0x'
  const id = operationIdOf({ tx })
  if (tx.operation === null || id === null) return refuse('it carries no operation')
  await operationKinds[tx.operation].checkStoredCall(ctx, { id, data, refuse })
  return { data }
}
