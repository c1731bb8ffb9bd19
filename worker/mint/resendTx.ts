import { type BroadcastRawTxReturnType, broadcastRawTx } from '../chain/broadcastRawTx'
import type { ChainTx } from '../db/listOrderTxs'
import { markTxBroadcast } from '../db/markTxBroadcast'
import type { WorkerContext } from '../runtime/context'
import { verifyStoredTx } from './verifyStoredTx'

export type ResendTxParameters = {
  /** the stored transaction whose exact bytes go out again */
  tx: ChainTx
  /** every transaction of the order: a sibling already known to the node is not an error */
  siblings: ChainTx[]
}

/**
 * Sends a stored signed transaction again, byte for byte (never a new signature), and
 * marks it broadcast; first verifies the bytes are what the order calls for
 * (verifyStoredTx: a mismatch is permanent and nothing is sent).
 */
export async function resendTx(
  ctx: WorkerContext,
  { tx, siblings }: ResendTxParameters,
): Promise<BroadcastRawTxReturnType> {
  await verifyStoredTx(ctx, { tx })
  const outcome = await broadcastRawTx(ctx.chain, {
    raw: tx.rawTx,
    hash: tx.hash,
    signerAddress: tx.signerAddress,
    nonce: tx.nonce,
    siblings: siblings.filter((s) => s.hash !== tx.hash).map((s) => s.hash),
  })
  await markTxBroadcast(ctx.db, { hash: tx.hash })
  return outcome
}
