import type { OperationKindName } from '@/db/schema'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import type { ChainTx } from '../db/listOrderTxs'
import { markTxMined } from '../db/markTxMined'
import { operationKinds } from '../operations/operationKinds'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { resendTx } from './resendTx'

export type HandleReorgParameters = {
  operation: OperationKindName
  /** the operation's id (a mint's order id) */
  orderId: string
  /** every transaction of the operation; one was seen mined, and no receipt is found now */
  txs: ChainTx[]
}

/**
 * A transaction of the operation was seen mined but its receipt is gone (a reorg took the
 * block): its mined mark is cleared, the operation goes back to submitted holding what it held
 * in flight (its kind's reorged: a mint's bars reserved again) with a 'reorged' event, and the
 * same bytes are sent again
 * ('rebroadcast'). The caller looks again later (the confirmer's next pass).
 */
export async function handleReorg(
  ctx: WorkerContext,
  run: ConfirmRun,
  { operation, orderId, txs }: HandleReorgParameters,
): Promise<void> {
  const lost = txs.find((t) => t.minedBlock !== null)
  if (!lost) return
  await ctx.db.transaction(async (tx) => {
    const kind = operationKinds[operation]
    await kind.lock(tx, { ids: [orderId], lock: true })
    await markTxMined(tx, { signerAddress: lost.signerAddress, nonce: lost.nonce, hash: null, blockNumber: null })
    await kind.reorged(tx, { id: orderId })
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
