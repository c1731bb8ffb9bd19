import { eq } from 'drizzle-orm'
import { chainTxs } from '@/db/schema'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { lockRedemptions } from '../../db/lockRedemptions'
import { markTxMined } from '../../db/markTxMined'
import { type SendOrder, sendEventOf } from '../../mint/sendOutcome'
import type { WorkerContext } from '../../runtime/context'
import { markRedemptionsBurnedWithEvent } from './markRedemptionsBurnedWithEvent'

/**
 * The token says this redemption is burned (the simulation reverted RedemptionAlreadyBurned) while no transaction
 * of ours carries it: the chain wins. The redemption is burned with the transaction of its Burned event, a
 * 'reconciled' event on its timeline.
 */
export async function reconcileBurned(ctx: WorkerContext, { order, actor }: { order: SendOrder; actor: string }) {
  const id = order.orderId
  const [log] = await ctx.chain.getContractEvents({
    address: ctx.tokenAddress,
    abi: goldTokenAbi,
    eventName: 'Burned',
    args: { redemptionId: orderIdToBytes32(id) },
    fromBlock: 0n,
    toBlock: 'latest',
  })
  if (!log || log.transactionHash === null || log.blockNumber === null)
    throw new PermanentJobError('the token reports this redemption as burned, but no Burned event was found')
  const found = { hash: log.transactionHash, blockNumber: log.blockNumber }
  await ctx.db.transaction(async (tx) => {
    await lockRedemptions(tx, { ids: [id], lock: true })
    const [stored] = await tx
      .select({ signerAddress: chainTxs.signerAddress, nonce: chainTxs.nonce })
      .from(chainTxs)
      .where(eq(chainTxs.hash, found.hash))
    if (stored) await markTxMined(tx, { ...stored, hash: found.hash, blockNumber: found.blockNumber })
    await markRedemptionsBurnedWithEvent(tx, { done: [{ id, txHash: found.hash, blockNumber: found.blockNumber }] })
    await recordJobEvent(tx, {
      ...sendEventOf({ order, actor, task: TASK.redemptionSend }),
      event: 'reconciled',
      detail: `already burned on chain by ${found.hash} (block ${found.blockNumber})`,
      data: { hash: found.hash, blockNumber: found.blockNumber.toString() },
    })
  })
  ctx.log.warn({ redemptionId: id, hash: found.hash }, 'redemption was already burned on chain: reconciled')
}
