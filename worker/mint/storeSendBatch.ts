import { isAddressEqual } from 'viem'
import { WorkerError } from '@/lib/errors/jobs'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { listBoundNonces } from '../db/listBoundNonces'
import { listTxsOfOperations } from '../db/listTxsOfOperations'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { storeSignedTxs } from '../db/storeSignedTxs'
import type { OperationKind, OperationRow } from '../operations/OperationKind'
import type { WorkerContext } from '../runtime/context'
import type { ToResend } from './prepareSendBatch'
import { type SendOutcomes, sendEventOf } from './sendOutcome'
import { signingStoppedWait } from './signingStoppedWait'
import type { Signed } from './signSendBatch'

export type StoreSendBatchParameters<Row extends OperationRow> = {
  kind: OperationKind<Row>
  signed: readonly Signed[]
  actor: string
}

export type StoreSendBatchReturnType = { stored: Signed[]; toResend: ToResend[]; outcomes: SendOutcomes }

/**
 * ONE transaction stores every signature of the batch BEFORE anything is broadcast
 * (invariant 2), under the orders' locks and the locks of their nonce rows: a signature
 * is stored only if its order is still open, has no stored transaction (another run that
 * stored first wins: its bytes are re-sent instead) and still holds that very nonce
 * `reserved` (not released meanwhile by the nonce health check: then it is dropped, and
 * the order's next attempt takes a new nonce). 'signed' events. It holds the stop switch FOR SHARE: once a stop
 * has committed nothing more is stored; the signatures are dropped and each order waits with its nonce bound
 * (docs/decisions/052-stop-switch.md).
 */
export async function storeSendBatch<Row extends OperationRow>(
  ctx: WorkerContext,
  { kind, signed, actor }: StoreSendBatchParameters<Row>,
): Promise<StoreSendBatchReturnType> {
  const outcomes: SendOutcomes = new Map()
  const toResend: ToResend[] = []
  const stored: Signed[] = []
  const orderIds = signed.map((s) => s.order.orderId)
  await ctx.db.transaction(async (tx) => {
    // the stop switch (FOR SHARE), the orders' locks, then under them their stored transactions and their nonce
    // rows' locks, in this order on the connection; pipelined: one round trip
    const [switchState, rows, txsByOrder, bound] = await Promise.all([
      readSigningSwitch(tx, { share: true }),
      kind.lock(tx, { ids: orderIds, lock: true }),
      listTxsOfOperations(tx, { kind: kind.kind, ids: orderIds }),
      listBoundNonces(tx, { kind: kind.kind, ids: orderIds, lock: true }),
    ])
    if (switchState.stopped) {
      for (const s of signed) outcomes.set(s.order.orderId, signingStoppedWait(switchState))
      return
    }
    for (const s of signed) {
      const row = rows.get(s.order.orderId)
      const txs = txsByOrder.get(s.order.orderId) ?? []
      const holds = bound.get(s.order.orderId)
      const settled = row ? kind.settledOf({ row }) : 'gone'
      if (!row || settled) outcomes.set(s.order.orderId, { kind: 'settled', status: settled ?? 'gone' })
      else if (txs.length > 0) toResend.push({ order: s.order, txs })
      else if (!holds || !isAddressEqual(holds.signerAddress, s.signerAddress) || holds.nonce !== s.nonce) {
        const error = new WorkerError(
          `nonce ${s.nonce} of ${s.signerAddress} is no longer reserved for ${kind.noun} ${s.order.orderId}: the signature is dropped, the next attempt takes a new nonce`,
        )
        outcomes.set(s.order.orderId, { kind: 'failed', error })
      } else stored.push(s)
    }
    // the transactions and their 'signed' events, pipelined: one round trip
    const storing = storeSignedTxs(tx, {
      txs: stored.map((s) => ({
        hash: s.hash,
        signerAddress: s.signerAddress,
        nonce: s.nonce,
        ...kind.reference({ id: s.order.orderId }),
        kind: kind.kind,
        rawTx: s.raw,
        maxFeePerGas: s.fees.maxFeePerGas,
        maxPriorityFeePerGas: s.fees.maxPriorityFeePerGas,
        gasLimit: s.gas,
      })),
    })
    const events: RecordJobEventParameters[] = stored.map((s) => ({
      ...sendEventOf({ order: s.order, actor, task: kind.sendTask }),
      event: 'signed',
      detail: `signed ${s.hash} (nonce ${s.nonce})`,
      data: {
        hash: s.hash,
        signer: s.signerAddress,
        nonce: s.nonce.toString(),
        maxFeePerGas: s.fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: s.fees.maxPriorityFeePerGas.toString(),
        gas: s.gas.toString(),
      },
    }))
    await Promise.all([storing, recordJobEvents(tx, events)])
  })
  return { stored, toResend, outcomes }
}
