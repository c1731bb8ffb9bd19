import type { Address } from 'viem'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { markTxsBroadcast } from '../db/markTxsBroadcast'
import type { OperationKind, OperationRow } from '../operations/OperationKind'
import type { WorkerContext } from '../runtime/context'
import type { Broadcast } from './broadcastSendBatch'
import { type SendOutcomes, sendEventOf } from './sendOutcome'
import { startConfirming } from './startConfirming'

export type MarkSendBatchSubmittedParameters<Row extends OperationRow> = {
  kind: OperationKind<Row>
  broadcast: readonly Broadcast[]
  actor: string
}

/**
 * ONE transaction after the broadcast: the transactions marked broadcast (not the
 * underpriced ones), a 'broadcast' / 'already_known' / 'underpriced' event per order,
 * open orders -> submitted (the kind's markSubmitted), and the hand-over to confirming
 * (startConfirming, once per signer with all its orders). An order settled meanwhile
 * (confirmed, cancelled) keeps its status; its outcome is still `sent`.
 */
export async function markSendBatchSubmitted<Row extends OperationRow>(
  ctx: WorkerContext,
  { kind, broadcast, actor }: MarkSendBatchSubmittedParameters<Row>,
): Promise<SendOutcomes> {
  const outcomes: SendOutcomes = new Map()
  if (broadcast.length === 0) return outcomes
  await ctx.db.transaction(async (tx) => {
    const rows = await kind.lock(tx, { ids: broadcast.map((b) => b.order.orderId), lock: true })
    const marking = markTxsBroadcast(tx, {
      hashes: broadcast.filter((b) => b.result !== 'underpriced').map((b) => b.hash),
    })
    const events: RecordJobEventParameters[] = broadcast.map((b) => ({
      ...sendEventOf({ order: b.order, actor, task: kind.sendTask }),
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
      const row = rows.get(b.order.orderId)
      return row !== undefined && kind.settledOf({ row }) === null
    })
    // the broadcast marks, the events and the orders' status: pipelined, one round trip
    await Promise.all([
      marking,
      recordJobEvents(tx, events),
      kind.markSubmitted(tx, {
        rows: open.flatMap((b) => rows.get(b.order.orderId) ?? []),
        hashes: new Map(open.map((b) => [b.order.orderId, b.hash])),
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
