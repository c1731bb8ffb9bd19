import { eq } from 'drizzle-orm'
import { chainTxs } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { lockControlChanges } from '../../db/lockControlChanges'
import { markControlChangesApplied } from '../../db/markControlChanges'
import { markTxMined } from '../../db/markTxMined'
import { type SendOrder, sendEventOf } from '../../mint/sendOutcome'
import type { WorkerContext } from '../../runtime/context'

/**
 * GoldMinter says this change is applied (its simulation reverted ChangeAlreadyApplied) while no
 * transaction of ours carries it: the chain wins. The change is applied with the transaction of its
 * ControlChanged event, a 'reconciled' event on its timeline.
 */
export async function reconcileAppliedChange(
  ctx: WorkerContext,
  { order, actor }: { order: SendOrder; actor: string },
): Promise<void> {
  const id = order.orderId
  const [log] = await ctx.chain.getContractEvents({
    address: ctx.minterAddress,
    abi: goldMinterAbi,
    eventName: 'ControlChanged',
    args: { changeId: orderIdToBytes32(id) },
    fromBlock: 0n,
    toBlock: 'latest',
  })
  if (!log || log.transactionHash === null || log.blockNumber === null)
    throw new PermanentJobError('GoldMinter reports this change as applied, but no ControlChanged event was found')
  const found = { hash: log.transactionHash, blockNumber: log.blockNumber }
  await ctx.db.transaction(async (tx) => {
    await lockControlChanges(tx, { ids: [id], lock: true })
    const [stored] = await tx
      .select({ signerAddress: chainTxs.signerAddress, nonce: chainTxs.nonce })
      .from(chainTxs)
      .where(eq(chainTxs.hash, found.hash))
    if (stored) await markTxMined(tx, { ...stored, hash: found.hash, blockNumber: found.blockNumber })
    await markControlChangesApplied(tx, { done: [{ id, txHash: found.hash, blockNumber: found.blockNumber }] })
    await recordJobEvent(tx, {
      ...sendEventOf({ order, actor, task: TASK.controlSend }),
      event: 'reconciled',
      detail: `already applied on chain by ${found.hash} (block ${found.blockNumber})`,
      data: { hash: found.hash, blockNumber: found.blockNumber.toString() },
    })
  })
  ctx.log.warn({ changeId: id, hash: found.hash }, 'control change was already applied on chain: reconciled')
}
