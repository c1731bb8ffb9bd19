import { getAddress } from 'viem'
import { SignerUnavailableError } from '@/lib/errors/chain'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import { bumpFees } from '../chain/bumpFees'
import { capFees } from '../chain/capFees'
import { estimateFees } from '../chain/estimateFees'
import { signTx } from '../chain/signTx'
import { getMintOrder, type MintOrder } from '../db/getMintOrder'
import type { ChainTx } from '../db/listOrderTxs'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { storeSignedTx } from '../db/storeSignedTx'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { recordFeeCapped } from './recordFeeCapped'
import { verifyStoredTx } from './verifyStoredTx'

export type ReplaceStuckTxParameters = {
  order: MintOrder
  /** every transaction of the order, for the node's "already known" check */
  txs: ChainTx[]
  /** the transaction to outbid: the newest at the order's nonce */
  newest: ChainTx
  /** why, for the timeline ('not mined after ... ms', 'its fee cap is below the base fee') */
  why: string
}

/**
 * Replaces a stuck mint with the same calldata (re-derived from the order and checked
 * against the stored bytes: verifyStoredTx) at the same nonce and fees bumped by at
 * least 12.5% (and to the market), signed through KMS, stored before it is sent (a
 * retry re-sends these bytes), with a 'replaced' event; then broadcasts it. Fees above
 * the fee ceiling are lowered to it; when no replacement fits under it, nothing is signed:
 * 'fee_capped', the stuck transaction keeps its nonce, and mint_confirm's next look (no
 * attempt spent) tries again.
 */
export async function replaceStuckTx(ctx: WorkerContext, job: ConfirmRun, { order, txs, newest, why }: ReplaceStuckTxParameters): Promise<void> {
  const signer = ctx.signers.get(getAddress(newest.signerAddress))
  if (!signer) throw new SignerUnavailableError(newest.signerAddress)
  job.checkpoint('replacement')
  // the calldata re-derived from the order, once the stored bytes are verified to carry exactly it
  const { data } = await verifyStoredTx(ctx, { tx: newest })
  const current = await estimateFees(ctx.chain)
  const previous = { maxFeePerGas: BigInt(newest.maxFeePerGas), maxPriorityFeePerGas: BigInt(newest.maxPriorityFeePerGas) }
  const ceiling = capFees({
    fees: bumpFees({ previous, current }),
    baseFeePerGas: current.baseFeePerGas,
    ceiling: ctx.settings.feeCeiling,
    // the least the node takes as a replacement: the bump alone, without the market
    floor: bumpFees({ previous, current: { baseFeePerGas: 0n, maxPriorityFeePerGas: 0n } }),
  })
  if (ceiling.capped) {
    await ctx.db.transaction(async (tx) => {
      await getMintOrder(tx, { orderId: order.id, lock: true })
      await recordFeeCapped(tx, {
        ...confirmEventOf(job),
        detail: `${newest.hash} ${why}; ${ceiling.reason}: not replaced, it keeps nonce ${newest.nonce}`,
        data: { hash: newest.hash, nonce: newest.nonce.toString(), baseFeePerGas: current.baseFeePerGas.toString() },
      })
    })
    job.log.warn({ hash: newest.hash, reason: ceiling.reason }, 'fee ceiling: stuck transaction not replaced')
    return
  }
  const fees = ceiling.fees
  const gas = BigInt(newest.gasLimit)
  const { raw, hash } = await signTx(signer.account, {
    chainId: ctx.chainId,
    nonce: newest.nonce,
    to: ctx.tokenAddress,
    data,
    gas,
    ...fees,
  })
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId: order.id, lock: true })
    await storeSignedTx(tx, {
      hash,
      signerAddress: newest.signerAddress,
      nonce: newest.nonce,
      orderId: order.id,
      kind: 'replacement',
      rawTx: raw,
      gasLimit: gas,
      ...fees,
    })
    await recordJobEvent(tx, {
      ...confirmEventOf(job),
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
  })
  const outcome = await broadcastRawTx(ctx.chain, {
    raw,
    hash,
    signerAddress: newest.signerAddress,
    nonce: newest.nonce,
    siblings: txs.map((t) => t.hash),
  })
  await markTxBroadcast(ctx.db, { hash })
  job.log.warn({ replaced: newest.hash, hash, outcome, maxFeePerGas: fees.maxFeePerGas.toString() }, 'stuck transaction replaced')
}
