import { eq } from 'drizzle-orm'
import { chainTxs } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { lockComplianceOperations } from '../../db/lockComplianceOperations'
import { markComplianceOperationsApplied } from '../../db/markComplianceOperations'
import { markTxMined } from '../../db/markTxMined'
import { type SendOrder, sendEventOf } from '../../mint/sendOutcome'
import type { WorkerContext } from '../../runtime/context'

/** GoldMinter's events that carry a compliance operation's id */
const EVENTS = ['Frozen', 'Unfrozen', 'Paused', 'Unpaused'] as const

/**
 * GoldMinter says this operation id is used (its simulation reverted OperationAlreadyUsed) while no transaction of
 * ours carries it: the chain wins. The operation is applied with the transaction of its Frozen, Unfrozen, Paused or
 * Unpaused event, a 'reconciled' event on its timeline.
 */
export async function reconcileUsedOperation(
  ctx: WorkerContext,
  { order, actor }: { order: SendOrder; actor: string },
): Promise<void> {
  const id = order.orderId
  const logs = await Promise.all(
    EVENTS.map((eventName) =>
      ctx.chain.getContractEvents({
        address: ctx.minterAddress,
        abi: goldMinterAbi,
        eventName,
        args: { operationId: orderIdToBytes32(id) },
        fromBlock: 0n,
        toBlock: 'latest',
      }),
    ),
  )
  const log = logs.flat()[0]
  if (!log || log.transactionHash === null || log.blockNumber === null)
    throw new PermanentJobError('GoldMinter reports this operation id as used, but none of its events was found')
  const found = { hash: log.transactionHash, blockNumber: log.blockNumber }
  await ctx.db.transaction(async (tx) => {
    await lockComplianceOperations(tx, { ids: [id], lock: true })
    const [stored] = await tx
      .select({ signerAddress: chainTxs.signerAddress, nonce: chainTxs.nonce })
      .from(chainTxs)
      .where(eq(chainTxs.hash, found.hash))
    if (stored) await markTxMined(tx, { ...stored, hash: found.hash, blockNumber: found.blockNumber })
    await markComplianceOperationsApplied(tx, { done: [{ id, txHash: found.hash, blockNumber: found.blockNumber }] })
    await recordJobEvent(tx, {
      ...sendEventOf({ order, actor, task: TASK.complianceSend }),
      event: 'reconciled',
      detail: `already applied on chain by ${found.hash} (block ${found.blockNumber})`,
      data: { hash: found.hash, blockNumber: found.blockNumber.toString() },
    })
  })
  ctx.log.warn({ operationId: id, hash: found.hash }, 'compliance operation was already applied on chain: reconciled')
}
