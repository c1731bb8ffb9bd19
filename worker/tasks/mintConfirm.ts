import { getAddress, type Hex, parseTransaction, type TransactionReceipt } from 'viem'
import { z } from 'zod'
import { mintConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import { bumpFees } from '../chain/bumpFees'
import { decodeMintRevert } from '../chain/decodeMintRevert'
import { estimateFees } from '../chain/estimateFees'
import { getReceiptOrNull } from '../chain/getReceiptOrNull'
import { getTransactionOrNull } from '../chain/getTransactionOrNull'
import { mintedEventIn } from '../chain/mintedEventIn'
import { signTx } from '../chain/signTx'
import type { WorkerContext } from '../context'
import { enqueueFollowUp } from '../db/enqueueFollowUp'
import { getMintOrder, type MintOrder } from '../db/getMintOrder'
import { type ChainTx, listOrderTxs } from '../db/listOrderTxs'
import { markOrderConfirmed } from '../db/markOrderConfirmed'
import { markOrderFailed } from '../db/markOrderFailed'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { markTxMined } from '../db/markTxMined'
import { storeSignedTx } from '../db/storeSignedTx'
import { FeeTooLowError, MintedEventMissingError, MintTxRevertedError, NonceConsumedError, SignerUnavailableError } from '../errors/chain'
import { PermanentJobError } from '../errors/jobs'
import { newestTx } from '../newestTx'
import type { TaskDefinition, TaskRun } from '../runTask'

/** Added by mint_send (and re-added by itself); `poll` counts quiet checks, for the back-off. */
export const mintConfirmPayload = z.object({ orderId: z.guid(), poll: z.number().int().nonnegative().optional() })
export type MintConfirmPayload = z.infer<typeof mintConfirmPayload>

/** a runaway bump loop must not pay any fee: after this many replacements, only re-sends */
const MAX_REPLACEMENTS = 10

type Job = TaskRun<MintConfirmPayload>

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
 * (enqueueFollowUp), a little later.
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
      await onMined(ctx, job, { order, minedTx: txs[minedAt], receipt })
      return
    }

    if (txs.some((t) => t.minedBlock !== null)) {
      await onReorged(ctx, job, { txs })
      return
    }
    if (chainNonce > nonce) throw new NonceConsumedError(signerAddress, nonce)
    if (order.status === 'cancelled') return // its nonce is being filled by the nonce health task

    const newest = newestTx(mints)
    const known = await getTransactionOrNull(ctx.chain, { hash: newest.hash })
    const sentAt = (newest.broadcastAt ?? newest.createdAt).getTime()
    let replaceNow = false
    if (!known) {
      try {
        const outcome = await resend(ctx, { tx: newest, siblings: txs })
        await recordJobEvent(ctx.db, { ...eventOf(job), event: 'rebroadcast', detail: `the node did not know ${newest.hash}: sent again (${outcome})`, data: { hash: newest.hash } })
        job.log.warn({ hash: newest.hash, outcome }, 'transaction unknown to the node: re-sent')
      } catch (error) {
        // out of the pool and refused again for its fees (the base fee rose): outbid it now
        if (!(error instanceof FeeTooLowError)) throw error
        replaceNow = true
      }
    }
    if (replaceNow || (known && Date.now() - sentAt > ctx.settings.stuckAfterMs)) {
      if (mints.length > MAX_REPLACEMENTS) {
        job.log.error({ hash: newest.hash, replacements: mints.length - 1 }, 'still not mined after the maximum number of replacements')
      } else {
        await replace(ctx, job, { order, txs, newest, why: replaceNow ? 'its fee cap is below the base fee' : `not mined after ${ctx.settings.stuckAfterMs} ms` })
      }
    }
    await followUp(ctx, job, { poll: (job.payload.poll ?? 0) + 1 })
  },
}

async function onMined(ctx: WorkerContext, job: Job, { order, minedTx, receipt }: { order: MintOrder; minedTx: ChainTx; receipt: TransactionReceipt }): Promise<void> {
  const { orderId } = job.payload
  const where = { signerAddress: minedTx.signerAddress, nonce: minedTx.nonce }
  if (minedTx.kind === 'gap_fill') {
    // the nonce went to the gap fill of a cancel: this order will never be minted
    await ctx.db.transaction(async (tx) => {
      await getMintOrder(tx, { orderId, lock: true })
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
    })
    job.log.info({ hash: minedTx.hash }, 'the gap fill took the nonce of this cancelled order')
    return
  }

  if (receipt.status === 'reverted') {
    const parsed = parseTransaction(minedTx.rawTx)
    const reason = await decodeMintRevert(ctx.chain, {
      from: getAddress(minedTx.signerAddress),
      to: ctx.tokenAddress,
      data: parsed.data ?? '0x',
      gas: BigInt(minedTx.gasLimit),
      blockNumber: receipt.blockNumber,
    })
    await ctx.db.transaction(async (tx) => {
      await getMintOrder(tx, { orderId, lock: true })
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
      await markOrderFailed(tx, { orderId, reason: `mint reverted on chain: ${reason}`, from: ['pending', 'submitted', 'failed'] })
      await recordJobEvent(tx, { ...eventOf(job), event: 'reverted', detail: reason, data: { hash: minedTx.hash, blockNumber: receipt.blockNumber.toString() } })
    })
    throw new MintTxRevertedError(minedTx.hash, reason)
  }

  if (!mintedEventIn({ receipt, tokenAddress: ctx.tokenAddress, orderId })) {
    // the nonce is used either way: record it, so the nonce health check does not revive this job forever
    await ctx.db.transaction((tx) => markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber }))
    throw new MintedEventMissingError(minedTx.hash)
  }

  const latest = await ctx.chain.getBlockNumber()
  const confirmations = latest >= receipt.blockNumber ? latest - receipt.blockNumber + 1n : 0n
  const firstSeen = minedTx.minedBlock !== receipt.blockNumber
  const enough = confirmations >= BigInt(ctx.confirmations)
  await ctx.db.transaction(async (tx) => {
    const locked = await getMintOrder(tx, { orderId, lock: true })
    const data = { hash: minedTx.hash, blockNumber: receipt.blockNumber.toString(), confirmations: confirmations.toString() }
    if (firstSeen) {
      await markTxMined(tx, { ...where, hash: minedTx.hash, blockNumber: receipt.blockNumber })
      await recordJobEvent(tx, { ...eventOf(job), event: 'mined', detail: `${minedTx.hash} mined in block ${receipt.blockNumber}`, data })
    }
    if (locked && locked.status !== 'submitted') {
      await recordJobEvent(tx, {
        ...eventOf(job),
        event: 'reconciled',
        detail: `the order was ${locked.status}, but its mint ${minedTx.hash} is on chain: the chain wins`,
        data,
      })
    }
    if (enough) {
      await markOrderConfirmed(tx, { orderId, txHash: minedTx.hash, blockNumber: receipt.blockNumber })
      await recordJobEvent(tx, { ...eventOf(job), event: 'confirmed', detail: `${confirmations} confirmations`, data })
      return
    }
    await markOrderSubmitted(tx, { orderId, from: ['pending', 'failed', 'cancelled'] })
  })
  if (enough) {
    job.log.info({ hash: minedTx.hash, blockNumber: receipt.blockNumber.toString(), wasStatus: order.status }, 'mint confirmed')
    return
  }
  await followUp(ctx, job, { poll: firstSeen ? 0 : (job.payload.poll ?? 0) + 1 })
}

async function onReorged(ctx: WorkerContext, job: Job, { txs }: { txs: ChainTx[] }): Promise<void> {
  const { orderId } = job.payload
  const lost = txs.find((t) => t.minedBlock !== null)
  if (!lost) return
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await markTxMined(tx, { signerAddress: lost.signerAddress, nonce: lost.nonce, hash: null, blockNumber: null })
    await markOrderSubmitted(tx, { orderId })
    await markBarsReserved(tx, { orderId })
    await recordJobEvent(tx, {
      ...eventOf(job),
      event: 'reorged',
      detail: `${lost.hash} was mined in block ${lost.minedBlock} but its receipt is gone (reorg): sending it again`,
      data: { hash: lost.hash, blockNumber: String(lost.minedBlock) },
    })
  })
  job.log.warn({ hash: lost.hash, blockNumber: String(lost.minedBlock) }, 'mined transaction reorged away')
  const outcome = await resend(ctx, { tx: lost, siblings: txs })
  await recordJobEvent(ctx.db, { ...eventOf(job), event: 'rebroadcast', detail: `re-sent ${lost.hash} after the reorg (${outcome})`, data: { hash: lost.hash } })
  await followUp(ctx, job, { poll: 0 })
}

async function replace(
  ctx: WorkerContext,
  job: Job,
  { order, txs, newest, why }: { order: MintOrder; txs: ChainTx[]; newest: ChainTx; why: string },
): Promise<void> {
  const signer = ctx.signers.get(getAddress(newest.signerAddress))
  if (!signer) throw new SignerUnavailableError(newest.signerAddress)
  job.checkpoint('replacement')
  const original = parseTransaction(newest.rawTx)
  const current = await estimateFees(ctx.chain)
  const fees = bumpFees({
    previous: { maxFeePerGas: BigInt(newest.maxFeePerGas), maxPriorityFeePerGas: BigInt(newest.maxPriorityFeePerGas) },
    current,
  })
  const gas = BigInt(newest.gasLimit)
  const { raw, hash } = await signTx(signer.account, {
    chainId: ctx.chainId,
    nonce: newest.nonce,
    to: ctx.tokenAddress,
    data: original.data,
    gas,
    ...fees,
  })
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId: order.id, lock: true })
    await storeSignedTx(tx, {
      hash,
      signerAddress: newest.signerAddress,
      nonce: newest.nonce,
      orderId: order.id,
      kind: 'replacement',
      rawTx: raw,
      gasLimit: gas,
      ...fees,
    })
    await recordJobEvent(tx, {
      ...eventOf(job),
      event: 'replaced',
      detail: `${newest.hash} ${why}: replaced by ${hash} at nonce ${newest.nonce}`,
      data: {
        replaced: newest.hash,
        hash,
        nonce: newest.nonce.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      },
    })
  })
  const outcome = await broadcastRawTx(ctx.chain, {
    raw,
    hash,
    signerAddress: newest.signerAddress,
    nonce: newest.nonce,
    siblings: txs.map((t) => t.hash),
  })
  await markTxBroadcast(ctx.db, { hash })
  job.log.warn({ replaced: newest.hash, hash, outcome, maxFeePerGas: fees.maxFeePerGas.toString() }, 'stuck transaction replaced')
}

async function resend(ctx: WorkerContext, { tx, siblings }: { tx: ChainTx; siblings: ChainTx[] }) {
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

/** the next look: quick at first, then backing off to 10 x CONFIRM_POLL_MS */
async function followUp(ctx: WorkerContext, job: Job, { poll }: { poll: number }): Promise<void> {
  const { orderId } = job.payload
  const base = ctx.settings.confirmPollMs
  const delayMs = Math.min(base * 2 ** Math.min(poll, 10), base * 10)
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.mintConfirm,
      jobKey: mintConfirmJobKey(orderId),
      payload: { orderId, poll },
      orderId,
      runAt: new Date(Date.now() + delayMs),
      maxAttempts: ctx.settings.maxAttempts,
      actor: job.actor,
      detail: `look again in ${delayMs} ms`,
    })
  })
}

function eventOf(job: Job) {
  return { task: TASK.mintConfirm, orderId: job.payload.orderId, jobId: job.jobId, attempt: job.attempt, actor: job.actor }
}
