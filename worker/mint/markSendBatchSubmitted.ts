import type { Address } from 'viem'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { lockMintOrders } from '../db/lockMintOrders'
import { markOrdersSubmitted } from '../db/markOrdersSubmitted'
import { markTxsBroadcast } from '../db/markTxsBroadcast'
import type { WorkerContext } from '../runtime/context'
import type { Broadcast } from './broadcastSendBatch'
import { type SendOutcomes, sendEventOf } from './sendOutcome'
import { startConfirming } from './startConfirming'

export type MarkSendBatchSubmittedParameters = { broadcast: readonly Broadcast[]; actor: string }

/**
 * ONE transaction after the broadcast: the transactions marked broadcast (not the
 * underpriced ones), a 'broadcast' / 'already_known' / 'underpriced' event per order,
 * open orders -> submitted, and the hand-over to confirming (startConfirming, once per
 * signer with all its orders). An order settled meanwhile (confirmed, cancelled) keeps
 * its status; its outcome is still `sent`.
 */
export async function markSendBatchSubmitted(
  ctx: WorkerContext,
  { broadcast, actor }: MarkSendBatchSubmittedParameters,
): Promise<SendOutcomes> {
  const outcomes: SendOutcomes = new Map()
  if (broadcast.length === 0) return outcomes
  await ctx.db.transaction(async (tx) => {
    const rows = await lockMintOrders(tx, { orderIds: broadcast.map((b) => b.order.orderId), lock: true })
    const marking = markTxsBroadcast(tx, {
      hashes: broadcast.filter((b) => b.result !== 'underpriced').map((b) => b.hash),
    })
    const events: RecordJobEventParameters[] = broadcast.map((b) => ({
      ...sendEventOf(b.order, actor),
      event: b.result === 'sent' ? 'broadcast' : b.result,
      detail:
        b.result === 'sent'
          ? `sent ${b.hash}`
          : b.result === 'already_known'
            ? `${b.hash} was already known to the node`
            : `the node refused ${b.hash}: its fee cap is below the base fee; the confirm side replaces it with higher fees`,
      data: { hash: b.hash, signer: b.signerAddress, nonce: b.nonce.toString() },
    }))
    const open = broadcast.filter((b) => {
      const status = rows.get(b.order.orderId)?.status
      return status !== undefined && status !== 'confirmed' && status !== 'cancelled'
    })
    // the broadcast marks, the events and the orders' status: pipelined, one round trip
    await Promise.all([
      marking,
      recordJobEvents(tx, events),
      markOrdersSubmitted(tx, {
        orders: open.map((b) => ({ id: b.order.orderId, status: rows.get(b.order.orderId)?.status ?? '' })),
      }),
    ])
    const bySigner = new Map<Address, string[]>()
    for (const b of open) bySigner.set(b.signerAddress, [...(bySigner.get(b.signerAddress) ?? []), b.order.orderId])
    for (const [signerAddress, orderIds] of bySigner) await startConfirming(tx, ctx, { orderIds, signerAddress, actor })
  })
  for (const b of broadcast)
    outcomes.set(b.order.orderId, {
      kind: 'sent',
      hash: b.hash,
      signerAddress: b.signerAddress,
      nonce: b.nonce,
      broadcast: b.result,
    })
  return outcomes
}
