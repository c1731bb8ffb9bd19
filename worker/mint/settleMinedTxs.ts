import type { TransactionReceipt } from 'viem'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import type { ChainTx } from '../db/listOrderTxs'
import { lockMintOrders } from '../db/lockMintOrders'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { type ConfirmedOrder, markOrdersConfirmed } from '../db/markOrdersConfirmed'
import { type MinedNonce, markTxsMined } from '../db/markTxsMined'
import type { WorkerContext } from '../runtime/context'
import { confirmationsText } from './confirmationsText'
import { type ConfirmRun, confirmEventOf } from './confirmRun'

/** A mint of an order with a successful receipt carrying the order's Minted event. */
export type MinedMint = { orderId: string; tx: ChainTx; receipt: TransactionReceipt }

export type SettleMinedTxsParameters = {
  mined: readonly MinedMint[]
  /** the chain's head block number, read once per pass */
  head: bigint
}

export type SettleMinedTxsReturnType = { confirmed: number; minedFirstSeen: number }

/**
 * What one confirmer pass learnt from receipts, in ONE transaction for all its orders
 * (locked in id order): per order, 'mined' the first time its block is seen,
 * 'reconciled' when the order was not submitted (the chain wins), and with
 * CONFIRMATIONS blocks (head - block + 1) on top: confirmed, all of the pass's at once
 * through markOrdersConfirmed (their bars back their tokens, their notifications),
 * 'confirmed'. The transactions and nonces seen mined are marked with one statement each
 * (markTxsMined) and the events go in with one insert; only an order that was not
 * submitted (the chain wins over a failure or a cancel) costs statements of its own.
 */
export async function settleMinedTxs(
  ctx: WorkerContext,
  run: ConfirmRun,
  { mined, head }: SettleMinedTxsParameters,
): Promise<SettleMinedTxsReturnType> {
  if (mined.length === 0) return { confirmed: 0, minedFirstSeen: 0 }
  const needed = BigInt(ctx.confirmations)
  return ctx.db.transaction(async (tx) => {
    const orders = await lockMintOrders(tx, { orderIds: mined.map((m) => m.orderId), lock: true })
    const events: RecordJobEventParameters[] = []
    const firstSeen: MinedNonce[] = []
    const done: ConfirmedOrder[] = []
    let confirmed = 0
    let minedFirstSeen = 0
    for (const { orderId, tx: minedTx, receipt } of mined) {
      const order = orders.get(orderId)
      if (!order || order.status === 'confirmed') continue
      const block = receipt.blockNumber
      const confirmations = head >= block ? head - block + 1n : 0n
      // the order in the data too: a confirmer pass's own page lists the events of many orders
      const data = {
        hash: minedTx.hash,
        blockNumber: block.toString(),
        confirmations: confirmations.toString(),
        orderId,
      }
      const base = confirmEventOf(run, orderId)
      if (minedTx.minedBlock !== block) {
        firstSeen.push({
          signerAddress: minedTx.signerAddress,
          nonce: minedTx.nonce,
          hash: minedTx.hash,
          blockNumber: block,
        })
        events.push({ ...base, event: 'mined', detail: `${minedTx.hash} mined in block ${block}`, data })
        minedFirstSeen++
      }
      if (order.status !== 'submitted') {
        events.push({
          ...base,
          event: 'reconciled',
          detail: `the order was ${order.status}, but its mint ${minedTx.hash} is on chain: the chain wins`,
          data,
        })
      }
      if (confirmations >= needed) {
        done.push({ orderId, txHash: minedTx.hash, blockNumber: block })
        events.push({ ...base, event: 'confirmed', detail: confirmationsText(confirmations), data })
        confirmed++
      } else if (order.status !== 'submitted') {
        await markOrderSubmitted(tx, { orderId, from: ['pending', 'failed', 'cancelled'] })
      }
    }
    await markOrdersConfirmed(tx, { orders: done })
    await markTxsMined(tx, { mined: firstSeen })
    await recordJobEvents(tx, events)
    return { confirmed, minedFirstSeen }
  })
}
