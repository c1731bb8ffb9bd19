import { getAddress } from 'viem'
import { z } from 'zod'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { NonceConsumedError } from '@/worker/errors/chain'
import { readReceipt } from '../chain/readReceipt'
import { listOrderTxs } from '../db/listOrderTxs'
import { readMintOrderRow } from '../db/readMintOrderRow'
import { confirmRunOf } from '../mint/confirmRun'
import { handleMinedTx } from '../mint/handleMinedTx'
import { handlePendingTxs } from '../mint/handlePendingTxs'
import { handleReorg } from '../mint/handleReorg'
import { startConfirming } from '../mint/startConfirming'
import type { TaskDefinition } from '../runtime/runTask'

/** `poll` was the back-off counter of the job-per-order design: still accepted from a queue written by older code. */
export const orderConfirmPayload = z.object({ orderId: z.guid(), poll: z.number().int().nonnegative().optional() })
export type OrderConfirmPayload = z.infer<typeof orderConfirmPayload>

/**
 * order_confirm: ONE order, one look, for what the signer's confirmer (signer_confirm)
 * does not settle in bulk: it hands such an order over (confirmOrderAlone), and the
 * nonce health check revives it for a mined mint nobody follows. Receipts of every hash
 * of the order decide:
 * - mined with the Minted event: confirmed ('reconciled' if the order was not
 *   submitted), or, short of CONFIRMATIONS, back to the confirmer;
 * - mined and reverted: order failed with the decoded reason, dead letter (permanent);
 *   mined without the Minted event: dead letter, the order stays submitted;
 * - none, but one was seen mined before: reorged, the same bytes again, back to the confirmer;
 * - none and the chain used its nonce: NonceConsumedError, retried, then a dead letter;
 * - none and not used yet: re-sent or replaced as the confirmer would (handlePendingTxs),
 *   then back to the confirmer.
 * Its failures are this job's, as with any task: the admin sees, retries or cancels the
 * order's dead letter.
 */
export const orderConfirm: TaskDefinition<OrderConfirmPayload> = {
  name: TASK.orderConfirm,
  payload: orderConfirmPayload,
  orderIdOf: (p) => p.orderId,
  run: async (ctx, job) => {
    const { orderId } = job.payload
    const run = confirmRunOf(TASK.orderConfirm, job)
    const order = await readMintOrderRow(ctx.db, { orderId })
    if (!order) throw new PermanentJobError(`order ${orderId} does not exist`)
    if (order.status === 'confirmed') return

    const txs = await listOrderTxs(ctx.db, { orderId })
    const mints = txs.filter((t) => t.kind !== 'gap_fill')
    if (mints.length === 0) {
      if (order.status === 'cancelled') return
      throw new PermanentJobError('the order has no signed transaction to confirm')
    }
    const { signerAddress, nonce } = mints[0]
    const handBack = () =>
      ctx.db.transaction((tx) => startConfirming(tx, ctx, { orderIds: [orderId], signerAddress, actor: job.actor }))

    // the nonce first, then the receipts: a nonce seen used is then always explained by a receipt
    const chainNonce = BigInt(
      await ctx.chain.getTransactionCount({ address: getAddress(signerAddress), blockTag: 'latest' }),
    )
    const receipts = await Promise.all(txs.map((t) => readReceipt(ctx.chain, { hash: t.hash })))
    const minedAt = receipts.findIndex((r) => r !== null)
    const receipt = receipts[minedAt]
    if (minedAt >= 0 && receipt) {
      await handleMinedTx(ctx, run, { order, minedTx: txs[minedAt], receipt })
      return
    }
    if (txs.some((t) => t.minedBlock !== null)) {
      await handleReorg(ctx, run, { operation: 'mint', orderId, txs })
      await handBack()
      return
    }
    if (chainNonce > nonce) throw new NonceConsumedError(signerAddress, nonce)
    if (order.status === 'cancelled') return // its nonce is being filled by the nonce health task
    // one re-send or replacement of its own (a refusal of its stored
    // bytes is this job's dead letter), then the confirmer's again
    const pendingCount = BigInt(
      await ctx.chain.getTransactionCount({ address: getAddress(signerAddress), blockTag: 'pending' }),
    )
    const minedBlock = txs.find((t) => t.minedBlock !== null)?.minedBlock ?? null
    const { refused } = await handlePendingTxs(ctx, run, {
      orders: [{ operation: 'mint', orderId, nonce, txs, minedBlock }],
      pendingCount,
    })
    if (refused[0]) throw refused[0].error
    await handBack()
  },
}
