import { getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import { capFees } from '../chain/capFees'
import { findMintedLog } from '../chain/findMintedLog'
import { prepareMint } from '../chain/prepareMint'
import type { WorkerContext } from '../runtime/context'
import { getMintOrder } from '../db/getMintOrder'
import { listOrderTxs } from '../db/listOrderTxs'
import { markOrderConfirmed } from '../db/markOrderConfirmed'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { FeeTooLowError, MintRevertedError } from '@/lib/errors/chain'
import { PermanentJobError } from '@/lib/errors/jobs'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'
import { signMintTx } from '../mint/signMintTx'
import { startConfirming } from '../mint/startConfirming'
import { newestTx } from '../mint/newestTx'
import { verifyStoredTx } from '../mint/verifyStoredTx'
import { waitForLowerFees } from '../mint/waitForLowerFees'

/** Queued by the intake with the order (job key mint_send:<orderId>). */
export const mintSendPayload = z.object({ orderId: z.guid() })
export type MintSendPayload = z.infer<typeof mintSendPayload>

/**
 * mint_send: turn a pending order into exactly one signed, stored and broadcast mint.
 * - unknown order: permanent error; confirmed or cancelled: nothing to do;
 * - a stored transaction exists (an earlier attempt signed it): re-send those exact
 *   bytes, never sign again, once verified against the order (verifyStoredTx: our
 *   signer, the token, exactly mint(to, its bars' weight, orderId); else permanent);
 * - else simulate (a revert is permanent: dead letter, order failed with the reason);
 *   fees above the fee ceiling are lowered to it, and when the chain needs more than it
 *   allows, nothing is signed: 'fee_capped', and a new mint_send looks again later
 *   (waitForLowerFees: no attempt spent, no nonce taken);
 * - then, in one transaction under the order's lock (signMintTx): the check before
 *   signing (its bars still held and listed, its amount their weight, supply + amount
 *   within the reserves; a refusal is permanent: dead letter, order failed, nothing
 *   signed), nonce, signature, store; then broadcast;
 * - finally, in one transaction: order -> submitted, 'broadcast' event, mint_confirm added.
 */
export const mintSend: TaskDefinition<MintSendPayload> = {
  name: TASK.mintSend,
  payload: mintSendPayload,
  orderIdOf: (p) => p.orderId,
  run: async (ctx, job) => {
    const { orderId } = job.payload
    const order = await getMintOrder(ctx.db, { orderId })
    if (!order) throw new PermanentJobError(`order ${orderId} does not exist`)
    if (order.status === 'confirmed' || order.status === 'cancelled') {
      job.log.info({ status: order.status }, 'order already settled, nothing to send')
      return
    }

    let txs = await listOrderTxs(ctx.db, { orderId })
    let signedNow = false
    if (txs.length === 0) {
      const [from] = ctx.signers.keys()
      if (!from) throw new PermanentJobError('this worker has no signer')
      if (!isAddress(order.toAddress, { strict: false })) throw new PermanentJobError(`the recipient ${order.toAddress} is not an address`)
      let prepared
      try {
        prepared = await prepareMint(ctx.chain, {
          tokenAddress: ctx.tokenAddress,
          from,
          to: getAddress(order.toAddress),
          amountWei: BigInt(order.amountWei),
          orderId,
        })
      } catch (error) {
        if (error instanceof MintRevertedError && error.errorName === 'OrderAlreadyMinted') {
          await reconcileAlreadyMinted(ctx, job)
          return
        }
        throw error
      }
      const ceiling = capFees({ fees: prepared.fees, baseFeePerGas: prepared.fees.baseFeePerGas, ceiling: ctx.settings.feeCeiling })
      if (ceiling.capped) {
        await waitForLowerFees(ctx, job, { reason: ceiling.reason, wanted: prepared.fees })
        return
      }
      prepared = { ...prepared, fees: { ...prepared.fees, ...ceiling.fees } }
      await recordJobEvent(ctx.db, {
        ...eventOf(job),
        event: 'simulated',
        detail: `mint simulated: gas ${prepared.gas}, max fee ${prepared.fees.maxFeePerGas} wei`,
      })
      job.checkpoint('signing')
      const signed = await signMintTx(ctx, { orderId, prepared, jobId: job.jobId, attempt: job.attempt, actor: job.actor })
      if (signed.kind === 'skipped') return
      if (signed.kind === 'signed') {
        job.log.info({ hash: signed.tx.hash, signer: signed.tx.signerAddress, nonce: signed.tx.nonce.toString() }, 'mint signed and stored')
        ctx.failpoint('after_sign')
        txs = [signed.tx]
        signedNow = true
      } else {
        txs = signed.txs
      }
    } else {
      job.log.info({ hashes: txs.map((t) => t.hash) }, 're-sending the stored transaction')
    }

    job.checkpoint('broadcast')
    const newest = newestTx(txs)
    // bytes this run did not sign are sent only if they are exactly what the order calls for
    if (!signedNow) await verifyStoredTx(ctx, { tx: newest })
    let outcome: 'sent' | 'already_known' | 'underpriced'
    try {
      outcome = await broadcastRawTx(ctx.chain, {
        raw: newest.rawTx,
        hash: newest.hash,
        signerAddress: newest.signerAddress,
        nonce: newest.nonce,
        siblings: txs.filter((t) => t.hash !== newest.hash).map((t) => t.hash),
      })
    } catch (error) {
      // the base fee rose above its fee cap: the bytes stay valid, mint_confirm outbids them at the same nonce
      if (!(error instanceof FeeTooLowError)) throw error
      outcome = 'underpriced'
    }
    job.log.info({ hash: newest.hash, outcome }, 'broadcast')
    ctx.failpoint('after_broadcast')

    await ctx.db.transaction(async (tx) => {
      const locked = await getMintOrder(tx, { orderId, lock: true })
      if (outcome !== 'underpriced') await markTxBroadcast(tx, { hash: newest.hash })
      await recordJobEvent(tx, {
        ...eventOf(job),
        event: outcome === 'sent' ? 'broadcast' : outcome,
        detail:
          outcome === 'sent'
            ? `sent ${newest.hash}`
            : outcome === 'already_known'
              ? `${newest.hash} was already known to the node`
              : `the node refused ${newest.hash}: its fee cap is below the base fee; mint_confirm replaces it with higher fees`,
        data: { hash: newest.hash, signer: newest.signerAddress, nonce: newest.nonce.toString() },
      })
      if (!locked || locked.status === 'confirmed' || locked.status === 'cancelled') return
      await markOrderSubmitted(tx, { orderId })
      await startConfirming(tx, ctx, { orderIds: [orderId], signerAddress: newest.signerAddress, actor: job.actor })
    })
  },
}

/**
 * The token says this order is minted, yet no transaction of ours is stored for it (the
 * database lost rows, e.g. a restore): the chain wins. Confirm it with the mined hash.
 */
async function reconcileAlreadyMinted(ctx: WorkerContext, job: TaskRun<MintSendPayload>): Promise<void> {
  const { orderId } = job.payload
  const found = await findMintedLog(ctx.chain, { tokenAddress: ctx.tokenAddress, orderId })
  if (!found) throw new PermanentJobError('the token reports this order as minted, but no Minted event was found')
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await markOrderConfirmed(tx, { orderId, txHash: found.transactionHash, blockNumber: found.blockNumber })
    await recordJobEvent(tx, {
      ...eventOf(job),
      event: 'reconciled',
      detail: `already minted on chain by ${found.transactionHash} (block ${found.blockNumber}), not by a stored transaction`,
      data: { hash: found.transactionHash, blockNumber: found.blockNumber.toString() },
    })
  })
  job.log.warn({ hash: found.transactionHash }, 'order was already minted on chain: reconciled')
}

function eventOf(job: TaskRun<MintSendPayload>) {
  return { task: TASK.mintSend, orderId: job.payload.orderId, jobId: job.jobId, attempt: job.attempt, actor: job.actor }
}
