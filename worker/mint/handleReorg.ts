import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { getMintOrder } from '../db/getMintOrder'
import type { ChainTx } from '../db/listOrderTxs'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markTxMined } from '../db/markTxMined'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { resendTx } from './resendTx'
import { scheduleNextConfirm } from './scheduleNextConfirm'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'

export type HandleReorgParameters = {
  /** every transaction of the order; one was seen mined, and no receipt is found now */
  txs: ChainTx[]
}

/**
 * A transaction of the order was seen mined but its receipt is gone (a reorg took the
 * block): its mined mark is cleared, the order goes back to submitted with a 'reorged'
 * event, the same bytes are sent again and the next look is scheduled from poll 0.
 */
export async function handleReorg(ctx: WorkerContext, job: ConfirmRun, { txs }: HandleReorgParameters): Promise<void> {
  const { orderId } = job.payload
  const lost = txs.find((t) => t.minedBlock !== null)
  if (!lost) return
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await markTxMined(tx, { signerAddress: lost.signerAddress, nonce: lost.nonce, hash: null, blockNumber: null })
    await markOrderSubmitted(tx, { orderId })
    await markBarsReserved(tx, { orderId })
    await recordJobEvent(tx, {
      ...confirmEventOf(job),
      event: 'reorged',
      detail: `${lost.hash} was mined in block ${lost.minedBlock} but its receipt is gone (reorg): sending it again`,
      data: { hash: lost.hash, blockNumber: String(lost.minedBlock) },
    })
  })
  job.log.warn({ hash: lost.hash, blockNumber: String(lost.minedBlock) }, 'mined transaction reorged away')
  const outcome = await resendTx(ctx, { tx: lost, siblings: txs })
  await recordJobEvent(ctx.db, { ...confirmEventOf(job), event: 'rebroadcast', detail: `re-sent ${lost.hash} after the reorg (${outcome})`, data: { hash: lost.hash } })
  await scheduleNextConfirm(ctx, job, { poll: 0 })
}
