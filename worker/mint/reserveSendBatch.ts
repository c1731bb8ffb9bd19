import type { Address, Hex } from 'viem'
import { ReserveCheckRefusedError } from '@/lib/errors/reserves'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import type { Fees } from '../chain/capFees'
import { listBoundNonces } from '../db/listBoundNonces'
import { listTxsOfOperations } from '../db/listTxsOfOperations'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { reserveNonces } from '../db/reserveNonces'
import type { OperationKind, OperationRow } from '../operations/OperationKind'
import type { WorkerContext } from '../runtime/context'
import type { ToResend, ToSign } from './prepareSendBatch'
import { type SendOrder, type SendOutcomes, sendEventOf } from './sendOutcome'
import { signingStoppedWait } from './signingStoppedWait'

export type ReserveSendBatchParameters<Row extends OperationRow> = {
  kind: OperationKind<Row>
  toSign: readonly ToSign<Row>[]
  fees: Fees
  minedCounts: ReadonlyMap<Address, bigint>
  actor: string
}

/** An order with its nonce bound and committed, ready to be signed outside any lock. */
export type Reserved = { order: SendOrder; signerAddress: Address; nonce: bigint; data: Hex; gas: bigint }

export type ReserveSendBatchReturnType = { reserved: Reserved[]; toResend: ToResend[]; outcomes: SendOutcomes }

/**
 * The batch's SHORT transaction: lock its operations (id order) with what the kind's checks
 * need locked (a mint: its vaults, shared), re-read them under the lock (settled, or signed
 * meanwhile by another run: re-send) with their stored transactions and bound nonces, in one
 * round trip; run the kind's check before signing of each (a mint's: the reserve check and the
 * mint controls, docs/decisions/028-check-before-signing.md; the calldata rebuilt and its
 * signatures verified again: what is signed is that calldata); a refusal is that operation's
 * permanent failure, with a 'refused' event, nothing reserved for it; then take consecutive
 * nonces of one signer for those that hold none (reserveNonces: `reserved` rows bound to
 * them, 'nonce_reserved' events) and commit. One already holding a nonce keeps it. Those
 * beyond every signer's in-flight bound get no nonce: wait. KMS is not called here.
 */
export async function reserveSendBatch<Row extends OperationRow>(
  ctx: WorkerContext,
  p: ReserveSendBatchParameters<Row>,
): Promise<ReserveSendBatchReturnType> {
  const outcomes: SendOutcomes = new Map()
  const toResend: ToResend[] = []
  const reserved: Reserved[] = []
  const orderIds = p.toSign.map((s) => s.order.orderId)
  const prepared = new Map(p.toSign.map((s) => [s.order.orderId, s.row]))
  // opened before BEGIN: the kind's chain reads go out beside the transaction's BEGIN and locks
  const signing = p.kind.openSigning(ctx)
  await ctx.db.transaction(async (tx) => {
    // ONE round trip, in this order on the connection: the stop switch (FOR SHARE: a stop waits for this
    // transaction), the kind's locks, then the stored transactions and bound nonces under them
    const [switchState, rows, txsByOrder, bound] = await Promise.all([
      readSigningSwitch(tx, { share: true }),
      signing.lock(tx, { ids: orderIds, prepared }),
      listTxsOfOperations(tx, { kind: p.kind.kind, ids: orderIds }),
      listBoundNonces(tx, { kind: p.kind.kind, ids: orderIds }),
    ])
    if (switchState.stopped) {
      for (const s of p.toSign) outcomes.set(s.order.orderId, signingStoppedWait(switchState))
      return
    }
    const live: (ToSign<Row> & { locked: Row })[] = []
    for (const s of p.toSign) {
      const row = rows.get(s.order.orderId)
      const txs = txsByOrder.get(s.order.orderId) ?? []
      const settled = row ? p.kind.settledOf({ row }) : 'gone'
      if (!row || settled) outcomes.set(s.order.orderId, { kind: 'settled', status: settled ?? 'gone' })
      else if (txs.length > 0) toResend.push({ order: s.order, txs })
      else live.push({ ...s, locked: row, bound: bound.get(s.order.orderId) })
    }
    if (live.length === 0) return

    const events: RecordJobEventParameters[] = []
    const passed: ToSign<Row>[] = []
    const checks = await signing.check(tx, { rows: live.map((s) => s.locked), prepared })
    for (const [i, s] of live.entries()) {
      const base = sendEventOf({ order: s.order, actor: p.actor, task: p.kind.sendTask })
      events.push({
        ...base,
        event: 'simulated',
        detail: `simulated: gas ${s.gas}, max fee ${p.fees.maxFeePerGas} wei`,
      })
      const check = checks[i]
      if (check?.status === 'fulfilled') {
        passed.push({ ...s, data: check.value })
        continue
      }
      // a refusal is this order's alone (only reads ran for it); anything else fails the transaction
      const error: unknown = check?.reason
      if (!(error instanceof ReserveCheckRefusedError)) throw error
      events.push({ ...base, event: 'refused', detail: error.reason, data: { check: error.check } })
      outcomes.set(s.order.orderId, { kind: 'failed', error })
    }
    for (const s of passed)
      if (s.bound)
        reserved.push({
          order: s.order,
          signerAddress: s.bound.signerAddress,
          nonce: s.bound.nonce,
          data: s.data,
          gas: s.gas,
        })
    const fresh = passed.filter((s) => !s.bound)
    // the 'nonce_reserved' events go in with the binding itself (one round trip under the signer's lock)
    const recordBound = ({ signerAddress, nonces }: { signerAddress: Address; nonces: ReadonlyMap<string, bigint> }) =>
      recordJobEvents(
        tx,
        fresh.flatMap((s) => {
          const nonce = nonces.get(s.order.orderId)
          if (nonce === undefined) return []
          return [
            {
              ...sendEventOf({ order: s.order, actor: p.actor, task: p.kind.sendTask }),
              event: 'nonce_reserved',
              detail: `nonce ${nonce} of ${signerAddress}`,
              data: { signer: signerAddress, nonce: nonce.toString() },
            },
          ]
        }),
      )
    // the events go in before the signer's row is locked (the lock is held for the nonces and
    // their events only), pipelined with reserveNonces' first reads: one round trip
    const [, got] = await Promise.all([
      recordJobEvents(tx, events),
      reserveNonces(tx, {
        chainId: ctx.chainId,
        candidates: [...ctx.signers.keys()],
        kind: p.kind.kind,
        ids: fresh.map((s) => s.order.orderId),
        minedCounts: p.minedCounts,
        maxInFlight: ctx.settings.maxInFlightPerSigner,
        recordBound,
      }),
    ])
    for (const s of fresh) {
      const nonce = got?.nonces.get(s.order.orderId)
      if (got === null || nonce === undefined) {
        const reason = `every signer has ${ctx.settings.maxInFlightPerSigner} transactions in flight (MAX_IN_FLIGHT_PER_SIGNER)`
        outcomes.set(s.order.orderId, { kind: 'wait', reason, retryInMs: ctx.settings.inFlightRetryMs })
        continue
      }
      reserved.push({ order: s.order, signerAddress: got.signerAddress, nonce, data: s.data, gas: s.gas })
    }
  })
  return { reserved, toResend, outcomes }
}
