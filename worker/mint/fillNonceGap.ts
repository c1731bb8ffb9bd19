import { and, eq } from 'drizzle-orm'
import type { Hex } from 'viem'
import { signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { isTransientFault } from '@/worker/errors/faults'
import { type BroadcastRawTxReturnType, broadcastRawTx } from '../chain/broadcastRawTx'
import { bumpFees } from '../chain/bumpFees'
import { estimateFees } from '../chain/estimateFees'
import { signTx } from '../chain/signTx'
import { listNonceTxs } from '../db/listNonceTxs'
import { markTxBroadcast } from '../db/markTxBroadcast'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { storeSignedTx } from '../db/storeSignedTx'
import type { SignerAccount, WorkerContext } from '../runtime/context'
import { newestTx } from './newestTx'

export type FillNonceGapParameters = {
  signer: SignerAccount
  nonce: bigint
  jobId: bigint
  actor: string
}

export type FillNonceGapReturnType = { hash: Hex; outcome: BroadcastRawTxReturnType } | { skipped: string }

const SELF_TRANSFER_GAS = 21_000n

/**
 * Fills a released nonce (its order was cancelled) with a zero-value transfer to the
 * signer itself, so the signer's later transactions are not stuck behind a hole. Like a
 * mint, it is stored before it is sent. When the cancelled order's mint was already
 * signed, the fill outbids it (>= 12.5% on both fees) to replace it in the pool; if the
 * mint is mined first anyway, the chain wins (order_confirm confirms the order).
 */
export async function fillNonceGap(
  ctx: WorkerContext,
  { signer, nonce, jobId, actor }: FillNonceGapParameters,
): Promise<FillNonceGapReturnType> {
  // a gap fill is a new transaction: none while the stop switch is on (the gap waits for the resume)
  if ((await readSigningSwitch(ctx.db, { share: false })).stopped) return { skipped: 'signing stopped' }
  const before = await listNonceTxs(ctx.db, { signerAddress: signer.address, nonce })
  if (before.some((t) => t.kind === 'gap_fill')) return { skipped: 'already filled' }
  const current = await estimateFees(ctx.chain)
  const fees =
    before.length > 0
      ? bumpFees({
          previous: {
            maxFeePerGas: BigInt(newestTx(before).maxFeePerGas),
            maxPriorityFeePerGas: before.reduce(
              (m, t) => (BigInt(t.maxPriorityFeePerGas) > m ? BigInt(t.maxPriorityFeePerGas) : m),
              0n,
            ),
          },
          current,
        })
      : { maxFeePerGas: current.maxFeePerGas, maxPriorityFeePerGas: current.maxPriorityFeePerGas }
  let signed: Awaited<ReturnType<typeof signTx>>
  try {
    signed = await signTx(signer.account, {
      chainId: ctx.chainId,
      nonce,
      to: signer.address,
      value: 0n,
      gas: SELF_TRANSFER_GAS,
      ...fees,
    })
  } catch (error) {
    // KMS still throttled after its retries: the nonce stays released, the next nonce health run fills it
    if (!isTransientFault(error)) throw error
    return { skipped: `KMS throttled, filled on the next run (in ${error.retryAfterMs} ms or later)` }
  }
  const { raw, hash } = signed

  const stored = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(signerNonces)
      .where(
        and(
          eq(signerNonces.signerAddress, signer.address),
          eq(signerNonces.nonce, nonce),
          eq(signerNonces.state, 'released'),
        ),
      )
      .for('update')
    const row = rows[0]
    if (!row) return false
    await storeSignedTx(tx, {
      hash,
      signerAddress: signer.address,
      nonce,
      orderId: row.orderId,
      kind: 'gap_fill',
      rawTx: raw,
      gasLimit: SELF_TRANSFER_GAS,
      ...fees,
    })
    await recordJobEvent(tx, {
      event: 'gap_filled',
      task: TASK.nonceHealth,
      orderId: row.orderId,
      jobId,
      actor,
      detail: `nonce ${nonce} of ${signer.address} filled by the zero-value self-transfer ${hash}`,
      data: { hash, signer: signer.address, nonce: nonce.toString(), replaces: before.map((t) => t.hash) },
    })
    return true
  })
  if (!stored) return { skipped: 'no longer released' }

  const outcome = await broadcastRawTx(ctx.chain, {
    raw,
    hash,
    signerAddress: signer.address,
    nonce,
    siblings: before.map((t) => t.hash),
  })
  await markTxBroadcast(ctx.db, { hash })
  return { hash, outcome }
}
