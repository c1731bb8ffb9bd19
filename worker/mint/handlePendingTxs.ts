import { getAddress } from 'viem'
import { isPermanentJobError, type PermanentJobError } from '@/lib/errors/jobs'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { FeeTooLowError, MintNotMinedError, NonceConsumedError } from '@/worker/errors/chain'
import type { FollowedOrder } from '../db/listFollowedOrders'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { newestTx } from './newestTx'
import { replaceStuckTx } from './replaceStuckTx'
import { resendTx } from './resendTx'

/**
 * a runaway bump loop must not pay any fee: after this many replacements
 * of one order, it is handed to its own job and dies there
 */
const MAX_REPLACEMENTS = 10

/** replacements signed per pass and signer (KMS calls): the lowest nonces first, the rest on the next pass */
const MAX_REPLACEMENTS_PER_PASS = 8

export type HandlePendingTxsParameters = {
  /** the signer's followed orders not mined yet, at or above its mined nonce, lowest nonce first */
  orders: readonly FollowedOrder[]
  /** the signer's `pending` transaction count: the node holds a transaction at every nonce below it */
  pendingCount: bigint
}

/**
 * The signer's mints not mined yet, lowest nonce first (a higher nonce cannot be mined
 * before a lower one):
 * - at or above the node's `pending` count, the node holds nothing at that nonce: the
 *   same bytes are sent again ('rebroadcast' when the node took them as new); refused
 *   for its fees (the base fee rose above its cap), it is replaced at once;
 * - known to the node and not mined STUCK_AFTER_MS after it was sent: replaced at the
 *   same nonce with higher fees (replaceStuckTx), at most MAX_REPLACEMENTS per order and
 *   MAX_REPLACEMENTS_PER_PASS per pass, by a worker holding the signer's key (the
 *   confirmer's next pass may run on another worker).
 * A nonce the chain used meanwhile ("nonce too low", none of ours known) is left to the
 * next pass, which sees it below the mined nonce. A permanent error of one order (its
 * stored bytes do not match it: verifyStoredTx) does not stop the others: it is returned,
 * for the order to be handed to a job of its own; any other error ends the pass.
 */
export async function handlePendingTxs(
  ctx: WorkerContext,
  run: ConfirmRun,
  { orders, pendingCount }: HandlePendingTxsParameters,
): Promise<HandlePendingTxsReturnType> {
  let replaced = 0
  const refused: HandlePendingTxsReturnType['refused'] = []
  for (const followed of orders) {
    // only a worker holding the signer's KMS key signs a replacement;
    // a pass elsewhere re-sends and leaves it to the next
    const signer = followed.txs[0]?.signerAddress
    const holdsKey = signer !== undefined && ctx.signers.has(getAddress(signer))
    try {
      if (
        await handleOne(ctx, run, {
          followed,
          pendingCount,
          mayReplace: holdsKey && replaced < MAX_REPLACEMENTS_PER_PASS,
        })
      )
        replaced++
    } catch (error) {
      if (!isPermanentJobError(error)) throw error
      refused.push({ orderId: followed.orderId, error })
    }
  }
  return { refused }
}

export type HandlePendingTxsReturnType = {
  /** orders whose step failed for good (PermanentJobError) */
  refused: { orderId: string; error: PermanentJobError }[]
}

/** One order's re-send or replacement; returns whether it was replaced. */
async function handleOne(
  ctx: WorkerContext,
  run: ConfirmRun,
  { followed, pendingCount, mayReplace }: { followed: FollowedOrder; pendingCount: bigint; mayReplace: boolean },
): Promise<boolean> {
  const { orderId, txs } = followed
  const mints = txs.filter((t) => t.kind !== 'gap_fill')
  if (mints.length === 0) return false
  const newest = newestTx(mints)
  let replaceNow = false
  if (followed.nonce >= pendingCount) {
    run.checkpoint('re-send')
    try {
      const outcome = await resendTx(ctx, { tx: newest, siblings: txs })
      if (outcome === 'sent') {
        await recordJobEvent(ctx.db, {
          ...confirmEventOf(run, orderId),
          event: 'rebroadcast',
          detail: `the node did not know ${newest.hash}: sent again`,
          data: { hash: newest.hash, orderId },
        })
        run.log.warn({ orderId, hash: newest.hash }, 'transaction unknown to the node: re-sent')
      }
    } catch (error) {
      if (error instanceof NonceConsumedError) return false
      // out of the pool and refused again for its fees (the base fee rose): outbid it now
      if (!(error instanceof FeeTooLowError)) throw error
      replaceNow = true
    }
  }
  const sentAt = (newest.broadcastAt ?? newest.createdAt).getTime()
  const stuck = replaceNow || (followed.nonce < pendingCount && Date.now() - sentAt > ctx.settings.stuckAfterMs)
  if (!stuck || !mayReplace) return false
  // no further fee bump: the order becomes a dead letter of its own, which the admin sees and cancels
  if (mints.length > MAX_REPLACEMENTS) throw new MintNotMinedError(newest.hash, mints.length - 1)
  const why = replaceNow ? 'its fee cap is below the base fee' : `not mined after ${ctx.settings.stuckAfterMs} ms`
  return replaceStuckTx(ctx, run, { operation: followed.operation, orderId, txs, newest, why })
}
