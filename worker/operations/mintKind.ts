import { isAddress } from 'viem'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordMintEvent } from '@/lib/notifications/recordMintEvent'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'
import { mintedEventIn } from '../chain/mintedEventIn'
import { lockMintOrders } from '../db/lockMintOrders'
import { markOrderSubmitted } from '../db/markOrderSubmitted'
import { markOrdersConfirmed } from '../db/markOrdersConfirmed'
import { markOrdersSubmitted } from '../db/markOrdersSubmitted'
import type { MintOrder } from '../db/readMintOrderRow'
import { recordMintEvents } from '../db/recordMintEvents'
import { confirmOrderAlone } from '../mint/confirmOrderAlone'
import { reconcileAlreadyMinted } from '../mint/reconcileAlreadyMinted'
import { checkStoredMintCall } from './mint/checkStoredMintCall'
import { openMintSigning } from './mint/openMintSigning'
import { prepareMintCalls } from './mint/prepareMintCalls'
import { NO_OPERATION, type OperationKind } from './OperationKind'

/**
 * The mint, an operation of the one send pipeline (docs/decisions/049-one-pipeline-for-every-operation.md):
 * a row of mint_orders, referenced by order_id, its approvers' signatures in mint_order_signatures,
 * sent as GoldMinter.attestAndMint.
 */
export const mintKind: OperationKind<MintOrder> = {
  kind: 'mint',
  noun: 'order',
  sendTask: TASK.mintSend,
  reference: ({ id }) => ({ ...NO_OPERATION, orderId: id }),
  lock: (db, { ids, lock }) => lockMintOrders(db, { orderIds: ids, lock }),
  done: 'confirmed',
  settledOf: ({ row }) => (row.status === 'confirmed' || row.status === 'cancelled' ? row.status : null),
  refusalOf: ({ row }) =>
    isAddress(row.toAddress, { strict: false }) ? null : `the recipient ${row.toAddress} is not an address`,
  prepareCalls: prepareMintCalls,
  alreadyDone: 'OrderAlreadyMinted',
  reconcile: reconcileAlreadyMinted,
  openSigning: openMintSigning,
  checkStoredCall: checkStoredMintCall,
  markSubmitted: async (tx, { rows, hashes }) => {
    // the first broadcast of each: a mint.submitted event with its hash, written before the status moves on
    const first = rows.filter((r) => r.status === 'pending' || r.status === 'failed')
    // one statement for the batch's events, before the statuses move on (recordMintEvents)
    await recordMintEvents(tx, {
      type: 'mint.submitted',
      status: 'submitted',
      from: ['pending', 'failed'],
      events: first.map((r) => ({ orderId: r.id, data: { txHash: hashes.get(r.id) ?? null } })),
    })
    await markOrdersSubmitted(tx, { orders: rows.map((r) => ({ id: r.id, status: r.status })) })
  },
  replaced: async (tx, { id, hash, replaced }) => {
    await recordMintEvent(tx, {
      type: 'mint.replaced',
      orderId: id,
      status: null,
      from: ['submitted'],
      data: { txHash: hash, replaced },
    })
  },
  eventIn: (ctx, { receipt, id }) =>
    mintedEventIn({ receipt, tokenAddress: ctx.tokenAddress, orderId: id }) !== undefined,
  markConfirmed: (tx, { done }) =>
    markOrdersConfirmed(tx, {
      orders: done.map((d) => ({ orderId: d.id, txHash: d.txHash, blockNumber: d.blockNumber })),
    }),
  reopen: (tx, { id }) => markOrderSubmitted(tx, { orderId: id, from: ['pending', 'failed', 'cancelled'] }),
  handOver: async (tx, ctx, { id, actor, detail }) => {
    await confirmOrderAlone(tx, ctx, { orderId: id, actor, detail })
  },
  reorged: async (tx, { id }) => {
    await recordMintEvent(tx, { type: 'mint.reorged', orderId: id, status: 'submitted', from: null })
    await markOrderSubmitted(tx, { orderId: id })
    await markBarsReserved(tx, { orderId: id })
  },
}
