import type { TransactionReceipt } from 'viem'
import type { OperationKindName } from '@/db/schema'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import type { ChainTx } from '../db/listOrderTxs'
import { type MinedNonce, markTxsMined } from '../db/markTxsMined'
import type { ConfirmedOperation } from '../operations/OperationKind'
import { operationKinds } from '../operations/operationKinds'
import type { WorkerContext } from '../runtime/context'
import { confirmationsText } from './confirmationsText'
import { type ConfirmRun, confirmEventOf } from './confirmRun'

/**
 * An operation's call with a successful receipt carrying its event (a mint: the order's Minted);
 * `orderId` is the operation's id.
 */
export type MinedMint = { operation: OperationKindName; orderId: string; tx: ChainTx; receipt: TransactionReceipt }

export type SettleMinedTxsParameters = {
  mined: readonly MinedMint[]
  /** the chain's head block number, read once per pass */
  head: bigint
}

export type SettleMinedTxsReturnType = { confirmed: number; minedFirstSeen: number }

/**
 * What one confirmer pass learnt from receipts, in ONE transaction for all its operations
 * (locked in id order, kind by kind): per operation, 'mined' the first time its block is seen,
 * 'reconciled' when it was not submitted (the chain wins), and with CONFIRMATIONS blocks
 * (head - block + 1) on top: confirmed, all of a kind's at once through its markConfirmed (a
 * mint's bars back its tokens, its notifications), 'confirmed'. The transactions and nonces seen
 * mined are marked with one statement each (markTxsMined) and the events go in with one insert;
 * only an operation that was not submitted (the chain wins over a failure or a cancel) costs
 * statements of its own (its kind's reopen).
 */
export async function settleMinedTxs(
  ctx: WorkerContext,
  run: ConfirmRun,
  { mined, head }: SettleMinedTxsParameters,
): Promise<SettleMinedTxsReturnType> {
  if (mined.length === 0) return { confirmed: 0, minedFirstSeen: 0 }
  const needed = BigInt(ctx.confirmations)
  return ctx.db.transaction(async (tx) => {
    const kinds = [...new Set(mined.map((m) => m.operation))].sort()
    const rows = new Map<string, { status: string }>()
    for (const operation of kinds) {
      const ids = mined.filter((m) => m.operation === operation).map((m) => m.orderId)
      for (const [id, row] of await operationKinds[operation].lock(tx, { ids, lock: true })) rows.set(id, row)
    }
    const events: RecordJobEventParameters[] = []
    const firstSeen: MinedNonce[] = []
    const done = new Map<OperationKindName, ConfirmedOperation[]>()
    let confirmed = 0
    let minedFirstSeen = 0
    for (const { operation, orderId, tx: minedTx, receipt } of mined) {
      const kind = operationKinds[operation]
      const order = rows.get(orderId)
      if (!order || order.status === kind.done) continue
      const block = receipt.blockNumber
      const confirmations = head >= block ? head - block + 1n : 0n
      // the order in the data too: a confirmer pass's own page lists the events of many orders
      const data = {
        hash: minedTx.hash,
        blockNumber: block.toString(),
        confirmations: confirmations.toString(),
        orderId,
      }
      const base = confirmEventOf(run, orderId)
      if (minedTx.minedBlock !== block) {
        firstSeen.push({
          signerAddress: minedTx.signerAddress,
          nonce: minedTx.nonce,
          hash: minedTx.hash,
          blockNumber: block,
        })
        events.push({ ...base, event: 'mined', detail: `${minedTx.hash} mined in block ${block}`, data })
        minedFirstSeen++
      }
      if (order.status !== 'submitted') {
        events.push({
          ...base,
          event: 'reconciled',
          detail: `the order was ${order.status}, but its mint ${minedTx.hash} is on chain: the chain wins`,
          data,
        })
      }
      if (confirmations >= needed) {
        done.set(operation, [...(done.get(operation) ?? []), { id: orderId, txHash: minedTx.hash, blockNumber: block }])
        events.push({ ...base, event: 'confirmed', detail: confirmationsText(confirmations), data })
        confirmed++
      } else if (order.status !== 'submitted') {
        await kind.reopen(tx, { id: orderId })
      }
    }
    for (const [operation, list] of done) await operationKinds[operation].markConfirmed(tx, { done: list })
    await markTxsMined(tx, { mined: firstSeen })
    await recordJobEvents(tx, events)
    return { confirmed, minedFirstSeen }
  })
}
