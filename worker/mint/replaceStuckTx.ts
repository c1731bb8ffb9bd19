import { getAddress } from 'viem'
import type { OperationKindName } from '@/db/schema'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { SignerUnavailableError } from '@/worker/errors/chain'
import { isTransientFault } from '@/worker/errors/faults'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import { bumpFees } from '../chain/bumpFees'
import { capFees, type Fees } from '../chain/capFees'
import { estimateFees } from '../chain/estimateFees'
import { signTx } from '../chain/signTx'
import type { ChainTx } from '../db/listOrderTxs'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { storeSignedTx } from '../db/storeSignedTx'
import { operationKinds } from '../operations/operationKinds'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { recordFeeCapped } from './recordFeeCapped'
import { verifyStoredTx } from './verifyStoredTx'

export type ReplaceStuckTxParameters = {
  operation: OperationKindName
  /** the operation's id (a mint's order id) */
  orderId: string
  /** every transaction of the order, for the node's "already known" check */
  txs: ChainTx[]
  /** the transaction to outbid: the newest at the order's nonce */
  newest: ChainTx
  /** why, for the timeline ('not mined after ... ms', 'its fee cap is below the base fee', 'sped up by ...') */
  why: string
  /**
   * an admin's speed-up (decision 064): sign at exactly these fees instead of the bump; refused ('fee_capped', nothing
   * signed) when they are below the bump's floor or above the fee ceiling, never lowered
   */
  chosen?: Fees
}

/**
 * Replaces a stuck call with the same calldata (re-derived from its operation and checked
 * against the stored bytes: verifyStoredTx) at the same nonce and fees bumped by at
 * least 12.5% (and to the market), signed through KMS, stored before it is sent (a
 * retry re-sends these bytes), with a 'replaced' event; then broadcasts it. Fees above
 * the fee ceiling are lowered to it; when no replacement fits under it, nothing is signed:
 * 'fee_capped', the stuck transaction keeps its nonce, and the confirmer's next pass (no
 * attempt spent) tries again. An operation no longer submitted under its lock is left alone. An admin's `chosen`
 * fees are signed as they are or not at all.
 * Returns whether a replacement was signed, stored and sent.
 */
export async function replaceStuckTx(
  ctx: WorkerContext,
  run: ConfirmRun,
  { operation, orderId, txs, newest, why, chosen }: ReplaceStuckTxParameters,
): Promise<boolean> {
  const kind = operationKinds[operation]
  const signer = ctx.signers.get(getAddress(newest.signerAddress))
  if (!signer) throw new SignerUnavailableError(newest.signerAddress)
  run.checkpoint('replacement')
  // a replacement is a new transaction: none while the stop switch is on (the stuck one keeps its nonce)
  if ((await readSigningSwitch(ctx.db, { share: false })).stopped) return false
  // the calldata re-derived from the order, once the stored bytes are verified to carry exactly it
  const { data } = await verifyStoredTx(ctx, { tx: newest })
  const current = await estimateFees(ctx.chain)
  const previous = {
    maxFeePerGas: BigInt(newest.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(newest.maxPriorityFeePerGas),
  }
  const wanted = chosen ?? bumpFees({ previous, current })
  const ceiling = capFees({
    fees: wanted,
    baseFeePerGas: current.baseFeePerGas,
    ceiling: ctx.settings.feeCeiling,
    // the least the node takes as a replacement: the bump alone, without the market
    floor: bumpFees({ previous, current: { baseFeePerGas: 0n, maxPriorityFeePerGas: 0n } }),
  })
  // chosen fees are the admin's: lowered to the ceiling they would be other fees than asked for, so none are signed
  const lowered =
    ceiling.fees.maxFeePerGas !== wanted.maxFeePerGas ||
    ceiling.fees.maxPriorityFeePerGas !== wanted.maxPriorityFeePerGas
  if (ceiling.capped || (chosen && lowered)) {
    const reason = ceiling.capped ? ceiling.reason : 'the chosen fees are above the fee ceiling'
    await ctx.db.transaction(async (tx) => {
      await kind.lock(tx, { ids: [orderId], lock: true })
      await recordFeeCapped(tx, {
        ...confirmEventOf(run, orderId),
        detail: `${newest.hash} ${why}; ${reason}: not replaced, it keeps nonce ${newest.nonce}`,
        data: { hash: newest.hash, nonce: newest.nonce.toString(), baseFeePerGas: current.baseFeePerGas.toString() },
      })
    })
    run.log.warn({ orderId: orderId, hash: newest.hash, reason }, 'fee ceiling: stuck transaction not replaced')
    return false
  }
  const fees = ceiling.fees
  const gas = BigInt(newest.gasLimit)
  let signed: Awaited<ReturnType<typeof signTx>>
  try {
    signed = await signTx(signer.account, {
      chainId: ctx.chainId,
      nonce: newest.nonce,
      // a gap fill is a self-transfer (data 0x); a mint goes to GoldMinter
      to: data === '0x' ? getAddress(newest.signerAddress) : ctx.minterAddress,
      data,
      gas,
      ...fees,
    })
  } catch (error) {
    // KMS still throttled after its retries: not a failure of the pass; the next pass replaces it
    if (!isTransientFault(error)) throw error
    run.log.warn(
      { orderId, hash: newest.hash, retryAfterMs: error.retryAfterMs },
      'KMS throttled: the replacement waits for the next pass',
    )
    return false
  }
  const { raw, hash } = signed
  const stored = await ctx.db.transaction(async (tx) => {
    // an order cancelled (or settled) since it was read is not replaced: its nonce is the gap fill's now
    const locked = (await kind.lock(tx, { ids: [orderId], lock: true })).get(orderId)
    if (locked?.status !== 'submitted') return false
    await storeSignedTx(tx, {
      hash,
      signerAddress: newest.signerAddress,
      nonce: newest.nonce,
      ...kind.reference({ id: orderId }),
      kind: 'replacement',
      rawTx: raw,
      gasLimit: gas,
      ...fees,
    })
    await kind.replaced(tx, { id: orderId, hash, replaced: newest.hash })
    await recordJobEvent(tx, {
      ...confirmEventOf(run, orderId),
      event: 'replaced',
      detail: `${newest.hash} ${why}: replaced by ${hash} at nonce ${newest.nonce}`,
      data: {
        replaced: newest.hash,
        hash,
        nonce: newest.nonce.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      },
    })
    return true
  })
  if (!stored) return false
  const outcome = await broadcastRawTx(ctx.chain, {
    raw,
    hash,
    signerAddress: newest.signerAddress,
    nonce: newest.nonce,
    siblings: txs.map((t) => t.hash),
  })
  await markTxBroadcast(ctx.db, { hash })
  run.log.warn(
    { orderId: orderId, replaced: newest.hash, hash, outcome, maxFeePerGas: fees.maxFeePerGas.toString() },
    'stuck transaction replaced',
  )
  return true
}
