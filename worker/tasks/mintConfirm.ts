import { getAddress } from 'viem'
import { z } from 'zod'
import { NonceConsumedError } from '@/lib/errors/chain'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { getReceiptOrNull } from '../chain/getReceiptOrNull'
import { getMintOrder } from '../db/getMintOrder'
import { listOrderTxs } from '../db/listOrderTxs'
import { handleMinedTx } from '../mint/handleMinedTx'
import { handlePendingTx } from '../mint/handlePendingTx'
import { handleReorg } from '../mint/handleReorg'
import { scheduleNextConfirm } from '../mint/scheduleNextConfirm'
import type { TaskDefinition } from '../runtime/runTask'

/** Added by mint_send (and re-added by itself); `poll` counts quiet checks, for the back-off. */
export const mintConfirmPayload = z.object({ orderId: z.guid(), poll: z.number().int().nonnegative().optional() })
export type MintConfirmPayload = z.infer<typeof mintConfirmPayload>

/**
 * mint_confirm: one short look at the chain per run, never waiting in a worker slot.
 * Receipts of every hash of the order (replacements included) decide:
 * - mined, status success, Minted event for the order present: 'mined' (once per block);
 *   with CONFIRMATIONS blocks on top the order is confirmed (tx_hash = the mined hash);
 * - mined and reverted: order failed with the decoded reason, dead letter (permanent);
 * - none, but one was seen mined before: a reorg took it, order stays submitted,
 *   'reorged', the same bytes are sent again;
 * - none and the node does not know the transaction: re-send the same bytes;
 * - none and it is older than STUCK_AFTER_MS: a replacement at the same nonce with fees
 *   bumped >= 12.5% (and >= the market), stored before it is sent, 'replaced'.
 * Unless the order is settled, the run ends by handing over to its follow-up job
 * (scheduleNextConfirm), a little later. The steps live in worker/mint/.
 */
export const mintConfirm: TaskDefinition<MintConfirmPayload> = {
  name: TASK.mintConfirm,
  payload: mintConfirmPayload,
  orderIdOf: (p) => p.orderId,
  run: async (ctx, job) => {
    const { orderId } = job.payload
    const order = await getMintOrder(ctx.db, { orderId })
    if (!order) throw new PermanentJobError(`order ${orderId} does not exist`)
    if (order.status === 'confirmed') return

    const txs = await listOrderTxs(ctx.db, { orderId })
    const mints = txs.filter((t) => t.kind !== 'gap_fill')
    if (mints.length === 0) {
      if (order.status === 'cancelled') return
      throw new PermanentJobError('the order has no signed transaction to confirm')
    }
    const { signerAddress, nonce } = mints[0]

    // the nonce first, then the receipts: a nonce seen used is then always explained by a receipt
    const chainNonce = BigInt(await ctx.chain.getTransactionCount({ address: getAddress(signerAddress), blockTag: 'latest' }))
    const receipts = await Promise.all(txs.map((t) => getReceiptOrNull(ctx.chain, { hash: t.hash })))
    const minedAt = receipts.findIndex((r) => r !== null)
    const receipt = receipts[minedAt]
    if (minedAt >= 0 && receipt) {
      await handleMinedTx(ctx, job, { order, minedTx: txs[minedAt], receipt })
      return
    }

    if (txs.some((t) => t.minedBlock !== null)) {
      await handleReorg(ctx, job, { txs })
      return
    }
    if (chainNonce > nonce) throw new NonceConsumedError(signerAddress, nonce)
    if (order.status === 'cancelled') return // its nonce is being filled by the nonce health task

    await handlePendingTx(ctx, job, { order, txs, mints })
    await scheduleNextConfirm(ctx, job, { poll: (job.payload.poll ?? 0) + 1 })
  },
}
