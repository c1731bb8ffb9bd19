import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'
import type { ChainTx } from '../db/listOrderTxs'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markTxMined } from '../db/markTxMined'
import { readMintOrderRow } from '../db/readMintOrderRow'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { resendTx } from './resendTx'

export type HandleReorgParameters = {
  orderId: string
  /** every transaction of the order; one was seen mined, and no receipt is found now */
  txs: ChainTx[]
}

/**
 * A transaction of the order was seen mined but its receipt is gone (a reorg took the
 * block): its mined mark is cleared, the order goes back to submitted with its bars
 * reserved again and a 'reorged' event, and the same bytes are sent again
 * ('rebroadcast'). The caller looks again later (the confirmer's next pass).
 */
export async function handleReorg(
  ctx: WorkerContext,
  run: ConfirmRun,
  { orderId, txs }: HandleReorgParameters,
): Promise<void> {
  const lost = txs.find((t) => t.minedBlock !== null)
  if (!lost) return
  await ctx.db.transaction(async (tx) => {
    await readMintOrderRow(tx, { orderId, lock: true })
    await markTxMined(tx, { signerAddress: lost.signerAddress, nonce: lost.nonce, hash: null, blockNumber: null })
    await markOrderSubmitted(tx, { orderId })
    await markBarsReserved(tx, { orderId })
    await recordJobEvent(tx, {
      ...confirmEventOf(run, orderId),
      event: 'reorged',
      detail: `${lost.hash} was mined in block ${lost.minedBlock} but its receipt is gone (reorg): sending it again`,
      data: { hash: lost.hash, blockNumber: String(lost.minedBlock), orderId },
    })
  })
  run.log.warn({ orderId, hash: lost.hash, blockNumber: String(lost.minedBlock) }, 'mined transaction reorged away')
  const outcome = await resendTx(ctx, { tx: lost, siblings: txs })
  await recordJobEvent(ctx.db, {
    ...confirmEventOf(run, orderId),
    event: 'rebroadcast',
    detail: `re-sent ${lost.hash} after the reorg (${outcome})`,
    data: { hash: lost.hash, orderId },
  })
}
