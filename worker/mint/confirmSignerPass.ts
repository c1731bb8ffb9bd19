import { getAddress, type TransactionReceipt } from 'viem'
import { isPermanentJobError } from '@/lib/errors/jobs'
import { readReceipt } from '../chain/readReceipt'
import { type FollowedOrder, listFollowedOrders } from '../db/listFollowedOrders'
import { operationKinds } from '../operations/operationKinds'
import type { WorkerContext } from '../runtime/context'
import type { ConfirmRun } from './confirmRun'
import { handlePendingTxs } from './handlePendingTxs'
import { handleReorg } from './handleReorg'
import { type MinedMint, settleMinedTxs } from './settleMinedTxs'

export type ConfirmSignerPassParameters = {
  signerAddress: string
  /** orders whose nonce the previous pass saw used with no receipt of ours (a second sighting hands them over) */
  suspects: readonly string[]
  /** the head block of the previous pass: mined orders are looked at again only when it moved */
  lastHead: bigint | null
}

export type ConfirmSignerPassReturnType = {
  suspects: string[]
  head: bigint
  followed: number
  confirmed: number
}

/**
 * One pass of a signer's confirmer: the chain's `latest` and `pending` counts and head
 * block (one batched request), the signer's submitted orders (one query), and receipts
 * only for the orders whose nonce the chain has used (or that were seen mined before),
 * batched. Then:
 * - success with the order's Minted event: mined, confirmed with CONFIRMATIONS
 *   (settleMinedTxs, one transaction for all);
 * - reverted, or no Minted event, or (seen twice) the nonce used by none of ours: the
 *   order is handed over as its kind says (a mint: to an order_confirm job of its own), which fails
 *   it, confirms it or makes it a dead letter as one order;
 * - seen mined before, no receipt now: reorged (handleReorg: the same bytes again);
 * - not mined: re-sent when the node lost it, replaced when stuck (handlePendingTxs).
 * A permanent error of one order's step (its stored bytes refused) hands that order over
 * too, instead of ending the pass for every order of the signer.
 */
export async function confirmSignerPass(
  ctx: WorkerContext,
  run: ConfirmRun,
  p: ConfirmSignerPassParameters,
): Promise<ConfirmSignerPassReturnType> {
  const address = getAddress(p.signerAddress)
  // the nonce first, then the receipts: a nonce seen used is then always explained by a receipt
  const [latestCount, pendingCount, head] = await Promise.all([
    ctx.chain.getTransactionCount({ address, blockTag: 'latest' }),
    ctx.chain.getTransactionCount({ address, blockTag: 'pending' }),
    ctx.chain.getBlockNumber(),
  ])
  const latest = BigInt(latestCount)
  const orders = await listFollowedOrders(ctx.db, { signerAddress: p.signerAddress })
  const headMoved = p.lastHead === null || head !== p.lastHead
  const looked = orders.filter(
    (o) => (o.nonce < latest && (o.minedBlock === null || headMoved)) || (o.minedBlock !== null && o.nonce >= latest),
  )
  const receipts = await Promise.all(
    looked.map((o) => Promise.all(o.txs.map((t) => readReceipt(ctx.chain, { hash: t.hash })))),
  )

  const mined: MinedMint[] = []
  const alone: { order: FollowedOrder; why: string }[] = []
  const reorged: FollowedOrder[] = []
  const suspects: string[] = []
  looked.forEach((order, i) => {
    const found = (receipts[i] ?? []).flatMap(
      (receipt, j): { receipt: TransactionReceipt; tx: FollowedOrder['txs'][number] }[] => {
        const tx = order.txs[j]
        return receipt && tx ? [{ receipt, tx }] : []
      },
    )[0]
    if (found) {
      const { receipt, tx } = found
      if (
        tx.kind !== 'gap_fill' &&
        receipt.status === 'success' &&
        operationKinds[order.operation].eventIn(ctx, { receipt, id: order.orderId })
      ) {
        mined.push({ operation: order.operation, orderId: order.orderId, tx, receipt })
      } else {
        alone.push({
          order,
          why: `${tx.hash} is mined in block ${receipt.blockNumber} (${receipt.status}) but is not a successful call of the ${operationKinds[order.operation].noun}`,
        })
      }
    } else if (order.minedBlock !== null) {
      // no receipt at a head below the block we saw it mined in: a
      // lagging node of a provider, not a reorg; look again next pass
      if (head >= order.minedBlock) reorged.push(order)
    } else if (order.nonce < latest) {
      if (p.suspects.includes(order.orderId))
        alone.push({
          order,
          why: `nonce ${order.nonce} is used on chain, and no transaction of the order has a receipt`,
        })
      else suspects.push(order.orderId)
    }
  })

  const { confirmed } = await settleMinedTxs(ctx, run, { mined, head })
  for (const order of reorged) {
    run.checkpoint('reorg')
    try {
      await handleReorg(ctx, run, { operation: order.operation, orderId: order.orderId, txs: order.txs })
    } catch (error) {
      // one order's stored bytes refused (verifyStoredTx): its own job fails with it, the others go on
      if (!isPermanentJobError(error)) throw error
      alone.push({ order, why: error.message })
    }
  }
  const waiting = orders.filter((o) => o.nonce >= latest && o.minedBlock === null)
  const { refused } = await handlePendingTxs(ctx, run, { orders: waiting, pendingCount: BigInt(pendingCount) })
  for (const { orderId, error } of refused) {
    const order = waiting.find((o) => o.orderId === orderId)
    if (order) alone.push({ order, why: error.message })
  }
  for (const { order, why } of alone) {
    await ctx.db.transaction(async (tx) => {
      const kind = operationKinds[order.operation]
      await kind.lock(tx, { ids: [order.orderId], lock: true })
      await kind.handOver(tx, ctx, {
        id: order.orderId,
        actor: run.actor,
        detail: `the confirmer of ${p.signerAddress} hands it over: ${why}`,
      })
    })
    run.log.warn({ operation: order.operation, id: order.orderId, why }, 'handed over by the signer confirmer')
  }
  return { suspects, head, followed: orders.length, confirmed }
}
