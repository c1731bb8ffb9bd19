import { FeeTooLowError } from '@/lib/errors/chain'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { getTransactionOrNull } from '../chain/getTransactionOrNull'
import type { MintOrder } from '../db/getMintOrder'
import type { ChainTx } from '../db/listOrderTxs'
import type { WorkerContext } from '../runtime/context'
import { type ConfirmRun, confirmEventOf } from './confirmRun'
import { newestTx } from './newestTx'
import { replaceStuckTx } from './replaceStuckTx'
import { resendTx } from './resendTx'

/** a runaway bump loop must not pay any fee: after this many replacements, only re-sends */
const MAX_REPLACEMENTS = 10

export type HandlePendingTxParameters = {
  order: MintOrder
  /** every transaction of the order (gap fills included) */
  txs: ChainTx[]
  /** the order's mint and its replacements, none with a receipt yet */
  mints: ChainTx[]
}

/**
 * The order's mint is not mined yet: if the node does not know the newest transaction,
 * the same bytes are sent again ('rebroadcast'); if it is older than STUCK_AFTER_MS, or
 * the node refuses it again for its fees, it is replaced at the same nonce with higher
 * fees (replaceStuckTx), at most MAX_REPLACEMENTS times.
 */
export async function handlePendingTx(ctx: WorkerContext, job: ConfirmRun, { order, txs, mints }: HandlePendingTxParameters): Promise<void> {
  const newest = newestTx(mints)
  const known = await getTransactionOrNull(ctx.chain, { hash: newest.hash })
  const sentAt = (newest.broadcastAt ?? newest.createdAt).getTime()
  let replaceNow = false
  if (!known) {
    try {
      const outcome = await resendTx(ctx, { tx: newest, siblings: txs })
      await recordJobEvent(ctx.db, { ...confirmEventOf(job), event: 'rebroadcast', detail: `the node did not know ${newest.hash}: sent again (${outcome})`, data: { hash: newest.hash } })
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
      await replaceStuckTx(ctx, job, { order, txs, newest, why: replaceNow ? 'its fee cap is below the base fee' : `not mined after ${ctx.settings.stuckAfterMs} ms` })
    }
  }
}
