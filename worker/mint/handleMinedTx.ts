import { getAddress, parseTransaction, type TransactionReceipt } from 'viem'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { MintedEventMissingError, MintTxRevertedError } from '@/worker/errors/chain'
import { decodeMintRevert } from '../chain/decodeMintRevert'
import { mintedEventIn } from '../chain/mintedEventIn'
import type { ChainTx } from '../db/listOrderTxs'
import { markOrderFailed } from '../db/markOrderFailed'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markOrdersConfirmed } from '../db/markOrdersConfirmed'
import { markTxMined } from '../db/markTxMined'
import { type MintOrder, readMintOrderRow } from '../db/readMintOrderRow'
import type { WorkerContext } from '../runtime/context'
import { confirmationsText } from './confirmationsText'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { startConfirming } from './startConfirming'

export type HandleMinedTxParameters = {
  order: MintOrder
  /** the order's transaction that has a receipt */
  minedTx: ChainTx
  receipt: TransactionReceipt
}

/**
 * One of the order's transactions has a receipt:
 * - a gap fill (the order was cancelled): the nonce is recorded as used, nothing else;
 * - reverted: order failed with the decoded reason, a permanent error (dead letter);
 * - success without a Minted event for the order: never confirmed, a permanent error;
 * - success: 'mined' (once per block); with CONFIRMATIONS blocks on top the order is
 *   confirmed (tx_hash = the mined hash), else it stays submitted and goes back to its
 *   signer's confirmer. A mined mint of an order that was not submitted wins ('reconciled').
 * The order's own order_confirm runs it (the confirmer settles ordinary mints in bulk:
 * settleMinedTxs).
 */
export async function handleMinedTx(
  ctx: WorkerContext,
  run: ConfirmRun,
  { order, minedTx, receipt }: HandleMinedTxParameters,
): Promise<void> {
  const orderId = order.id
  const where = { signerAddress: minedTx.signerAddress, nonce: minedTx.nonce }
  if (minedTx.kind === 'gap_fill') {
    // the nonce went to the gap fill of a cancel: this order will never be minted
    await ctx.db.transaction(async (tx) => {
      await readMintOrderRow(tx, { orderId, lock: true })
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
    })
    run.log.info({ hash: minedTx.hash }, 'the gap fill took the nonce of this cancelled order')
    return
  }

  if (receipt.status === 'reverted') {
    const parsed = parseTransaction(minedTx.rawTx)
    const reason = await decodeMintRevert(ctx.chain, {
      from: getAddress(minedTx.signerAddress),
      to: ctx.minterAddress,
      data: parsed.data ?? '0x',
      gas: BigInt(minedTx.gasLimit),
      blockNumber: receipt.blockNumber,
    })
    await ctx.db.transaction(async (tx) => {
      await readMintOrderRow(tx, { orderId, lock: true })
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
      await markOrderFailed(tx, {
        orderId,
        reason: `mint reverted on chain: ${reason}`,
        code: 'reverted',
        from: ['pending', 'submitted', 'failed'],
      })
      await recordJobEvent(tx, {
        ...confirmEventOf(run, orderId),
        event: 'reverted',
        detail: reason,
        data: { hash: minedTx.hash, blockNumber: receipt.blockNumber.toString() },
      })
    })
    throw new MintTxRevertedError(minedTx.hash, reason)
  }

  if (!mintedEventIn({ receipt, tokenAddress: ctx.tokenAddress, orderId })) {
    // the nonce is used either way: record it, so the nonce health check does not revive this job forever
    await ctx.db.transaction((tx) =>
      markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber }),
    )
    throw new MintedEventMissingError(minedTx.hash)
  }

  const latest = await ctx.chain.getBlockNumber()
  const confirmations = latest >= receipt.blockNumber ? latest - receipt.blockNumber + 1n : 0n
  const firstSeen = minedTx.minedBlock !== receipt.blockNumber
  const enough = confirmations >= BigInt(ctx.confirmations)
  await ctx.db.transaction(async (tx) => {
    const locked = await readMintOrderRow(tx, { orderId, lock: true })
    const data = {
      hash: minedTx.hash,
      blockNumber: receipt.blockNumber.toString(),
      confirmations: confirmations.toString(),
    }
    if (firstSeen) {
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
      await recordJobEvent(tx, {
        ...confirmEventOf(run, orderId),
        event: 'mined',
        detail: `${minedTx.hash} mined in block ${receipt.blockNumber}`,
        data,
      })
    }
    if (locked && locked.status !== 'submitted') {
      await recordJobEvent(tx, {
        ...confirmEventOf(run, orderId),
        event: 'reconciled',
        detail: `the order was ${locked.status}, but its mint ${minedTx.hash} is on chain: the chain wins`,
        data,
      })
    }
    if (enough) {
      await markOrdersConfirmed(tx, { orders: [{ orderId, txHash: minedTx.hash, blockNumber: receipt.blockNumber }] })
      await recordJobEvent(tx, {
        ...confirmEventOf(run, orderId),
        event: 'confirmed',
        detail: confirmationsText(confirmations),
        data,
      })
      return
    }
    await markOrderSubmitted(tx, { orderId, from: ['pending', 'failed', 'cancelled'] })
  })
  if (enough) {
    run.log.info(
      { hash: minedTx.hash, blockNumber: receipt.blockNumber.toString(), wasStatus: order.status },
      'mint confirmed',
    )
    return
  }
  // not enough confirmations yet: the signer's confirmer counts them from here
  await ctx.db.transaction((tx) =>
    startConfirming(tx, ctx, { orderIds: [orderId], signerAddress: minedTx.signerAddress, actor: run.actor }),
  )
}
