import { eq } from 'drizzle-orm'
import { chainTxs } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { readMintedLog } from '../chain/readMintedLog'
import { markOrdersConfirmed } from '../db/markOrdersConfirmed'
import { markTxMined } from '../db/markTxMined'
import { readMintOrderRow } from '../db/readMintOrderRow'
import type { WorkerContext } from '../runtime/context'
import { type SendOrder, sendEventOf } from './sendOutcome'

export type ReconcileAlreadyMintedParameters = { order: SendOrder; actor: string }

/**
 * The token says this order is minted (its simulation reverted OrderAlreadyMinted), yet
 * no transaction of ours is stored for it (the database lost rows, e.g. a restore): the
 * chain wins. Confirm it with the mined hash, a 'reconciled' event on its timeline. When the
 * mined transaction is stored after all (another worker signed it between this one's read
 * and its simulation), its nonce is marked mined too, so no open nonce is left behind.
 */
export async function reconcileAlreadyMinted(
  ctx: WorkerContext,
  { order, actor }: ReconcileAlreadyMintedParameters,
): Promise<void> {
  const { orderId } = order
  const found = await readMintedLog(ctx.chain, { tokenAddress: ctx.tokenAddress, orderId })
  if (!found) throw new PermanentJobError('the token reports this order as minted, but no Minted event was found')
  await ctx.db.transaction(async (tx) => {
    await readMintOrderRow(tx, { orderId, lock: true })
    const [stored] = await tx
      .select({ signerAddress: chainTxs.signerAddress, nonce: chainTxs.nonce })
      .from(chainTxs)
      .where(eq(chainTxs.hash, found.transactionHash))
    if (stored) await markTxMined(tx, { ...stored, hash: found.transactionHash, blockNumber: found.blockNumber })
    await markOrdersConfirmed(tx, {
      orders: [{ orderId, txHash: found.transactionHash, blockNumber: found.blockNumber }],
    })
    await recordJobEvent(tx, {
      ...sendEventOf({ order, actor, task: TASK.mintSend }),
      event: 'reconciled',
      detail: `already minted on chain by ${found.transactionHash} (block ${found.blockNumber}), ${stored ? 'a transaction stored meanwhile' : 'not by a stored transaction'}`,
      data: { hash: found.transactionHash, blockNumber: found.blockNumber.toString() },
    })
  })
  ctx.log.warn({ orderId, hash: found.transactionHash }, 'order was already minted on chain: reconciled')
}
