import { getAddress } from 'viem'
import { JobAbortedError } from '@/lib/errors/jobs'
import { readSigningSwitch } from '../db/readSigningSwitch'
import type { OperationKind, OperationRow } from '../operations/OperationKind'
import type { WorkerContext } from '../runtime/context'
import { type Broadcast, broadcastSendBatch, type ToBroadcast } from './broadcastSendBatch'
import { markSendBatchSubmitted } from './markSendBatchSubmitted'
import { newestTx } from './newestTx'
import { prepareSendBatch, type ToResend } from './prepareSendBatch'
import { reserveSendBatch } from './reserveSendBatch'
import type { SendOrder, SendOutcome, SendOutcomes } from './sendOutcome'
import { signingStoppedWait } from './signingStoppedWait'
import { signSendBatch } from './signSendBatch'
import { storeSendBatch } from './storeSendBatch'
import { whileSigningAllowed } from './whileSigningAllowed'

export type SendOperationsParameters<Row extends OperationRow> = {
  /** the kind of every operation in `orders` (`orderId`: the operation's id) */
  kind: OperationKind<Row>
  orders: readonly SendOrder[]
  /** the worker id: actor of the events */
  actor: string
  /**
   * aborts between resumable steps when the worker shuts down (the orders not yet past a step fail with
   * JobAbortedError: retried)
   */
  signal?: AbortSignal
  /**
   * called once, when the batch is past its reserve transaction (or needs none): the batcher's gate opens for the next
   * batch (createSendBatcher)
   */
  onReserved?: () => void
}

/**
 * THE send path (docs/decisions/029-batched-sending.md), independent of the queue that carries it: turns a batch
 * of operations of one kind into exactly one signed, stored and broadcast call each (a mint's attestAndMint, a
 * control change's applyControlChange), and says per order what happened
 * (SendOutcome). Every kind's send task (worker/tasks/sendTask.ts, through its batcher) and the SQS consumer (through
 * sendMintOrders) call it.
 * 1. prepareSendBatch: no lock; settled orders, stored bytes to re-send, one fee estimate,
 *    a simulation per order (a revert: permanent, no nonce);
 * 2. reserveSendBatch: ONE short transaction: the check before signing per order, then
 *    consecutive nonces of one signer bound to the orders, committed (failpoint after_reserve);
 * 3. signSendBatch: KMS in parallel, outside every lock (a failure is its order's only);
 * 4. storeSendBatch: ONE transaction stores every signature unless the stop switch is on (failpoint after_sign);
 * 5. broadcastSendBatch: nonce order (failpoint after_broadcast);
 * 6. markSendBatchSubmitted: ONE transaction: broadcast marks, orders submitted,
 *    startConfirming per signer.
 * Throws only when a step fails for the whole batch before anything of it is stored;
 * the caller then fails every order's attempt (transient, nothing is lost: a bound nonce
 * is signed again by the retry).
 */
export async function sendOperations<Row extends OperationRow>(
  ctx: WorkerContext,
  { kind, orders, actor, signal, onReserved }: SendOperationsParameters<Row>,
): Promise<Map<string, SendOutcome>> {
  let reserveDone = false
  const pastReserve = () => {
    if (reserveDone) return
    reserveDone = true
    onReserved?.()
  }
  const outcomes: SendOutcomes = new Map()
  const merge = (more: SendOutcomes) => {
    for (const [id, o] of more) outcomes.set(id, o)
  }
  const abortRest = (step: string, rest: readonly { order: SendOrder }[]) => {
    if (!signal?.aborted) return false
    for (const r of rest) outcomes.set(r.order.orderId, { kind: 'failed', error: new JobAbortedError(step) })
    return true
  }
  const unique = [...new Map(orders.map((o) => [o.orderId, o])).values()]
  // the stop switch on: nothing is simulated, reserved or sent; each waits (the reserve and the broadcast
  // look again under the switch's share lock)
  const early = await readSigningSwitch(ctx.db, { share: false })
  if (early.stopped) {
    pastReserve()
    return new Map(unique.map((o) => [o.orderId, signingStoppedWait(early)]))
  }
  // per step wall time, in the batch's log line: where a batch spends its time
  const steps: Record<string, number> = {}
  let mark = performance.now()
  const lap = (step: string) => {
    const now = performance.now()
    steps[step] = Math.round(now - mark)
    mark = now
  }

  const prepared = await prepareSendBatch(ctx, { kind, orders: unique, actor })
  lap('prepareMs')
  merge(prepared.outcomes)
  let toResend: ToResend[] = prepared.toResend
  let stored: ToBroadcast[] = []

  if (prepared.toSign.length > 0 && !abortRest('signing', prepared.toSign)) {
    const reservedBatch = await reserveSendBatch(ctx, {
      kind,
      toSign: prepared.toSign,
      fees: prepared.fees,
      minedCounts: prepared.minedCounts,
      actor,
    }).catch((error: unknown) => {
      for (const s of prepared.toSign) outcomes.set(s.order.orderId, { kind: 'failed', error })
      return undefined
    })
    lap('reserveMs')
    pastReserve()
    if (reservedBatch) {
      merge(reservedBatch.outcomes)
      toResend = [...toResend, ...reservedBatch.toResend]
      if (reservedBatch.reserved.length > 0) {
        ctx.log.info(
          { orders: reservedBatch.reserved.length, first: reservedBatch.reserved[0]?.nonce.toString() },
          'nonces reserved for a send batch',
        )
        ctx.failpoint('after_reserve')
      }
      // a stop committed since the reserve: KMS is not asked; each waits with its nonce bound
      const stoppedSince =
        reservedBatch.reserved.length > 0 ? await readSigningSwitch(ctx.db, { share: false }) : undefined
      if (stoppedSince?.stopped)
        for (const r of reservedBatch.reserved) outcomes.set(r.order.orderId, signingStoppedWait(stoppedSince))
      else if (!abortRest('signing', reservedBatch.reserved)) {
        const signedBatch = await signSendBatch(ctx, { reserved: reservedBatch.reserved, fees: prepared.fees })
        merge(signedBatch.outcomes)
        lap('signMs')
        if (signedBatch.signed.length > 0) {
          const storedBatch = await storeSendBatch(ctx, { kind, signed: signedBatch.signed, actor }).catch(
            (error: unknown) => {
              for (const s of signedBatch.signed) outcomes.set(s.order.orderId, { kind: 'failed', error })
              return undefined
            },
          )
          lap('storeMs')
          if (storedBatch) {
            merge(storedBatch.outcomes)
            toResend = [...toResend, ...storedBatch.toResend]
            stored = storedBatch.stored.map((s) => ({
              order: s.order,
              raw: s.raw,
              hash: s.hash,
              signerAddress: s.signerAddress,
              nonce: s.nonce,
              siblings: [],
            }))
            if (stored.length > 0) {
              ctx.log.info({ orders: stored.length }, 'send batch signed and stored')
              ctx.failpoint('after_sign')
            }
          }
        }
      }
    }
  }

  pastReserve()
  const items: ToBroadcast[] = [...stored, ...toResend.map(resendItem)]
  if (items.length === 0 || abortRest('broadcast', items)) return outcomes
  // no broadcast starts once the stop switch is on; the stored bytes wait for the resume (docs/decisions/052)
  const allowed = await whileSigningAllowed(ctx, () => broadcastSendBatch(ctx, { items }))
  if (allowed.stopped) {
    for (const item of items) outcomes.set(item.order.orderId, signingStoppedWait(allowed))
    return outcomes
  }
  const sent = allowed.value
  merge(sent.outcomes)
  lap('broadcastMs')
  if (sent.broadcast.length > 0) ctx.failpoint('after_broadcast')
  await markSubmitted(ctx, { kind, broadcast: sent.broadcast, actor, outcomes })
  lap('markMs')
  ctx.log.info({ orders: unique.length, sent: sent.broadcast.length, ...steps }, 'send batch done')
  return outcomes
}

/** The newest stored transaction of an order, to be re-sent (never re-signed). */
function resendItem({ order, txs }: ToResend): ToBroadcast {
  const tx = newestTx(txs)
  return {
    order,
    raw: tx.rawTx,
    hash: tx.hash,
    signerAddress: getAddress(tx.signerAddress),
    nonce: tx.nonce,
    siblings: txs.filter((t) => t.hash !== tx.hash).map((t) => t.hash),
    stored: tx,
  }
}

/**
 * Step 6; if its transaction fails, the broadcast orders' attempts
 * fail (their bytes are stored: the retry re-sends them).
 */
async function markSubmitted<Row extends OperationRow>(
  ctx: WorkerContext,
  p: { kind: OperationKind<Row>; broadcast: Broadcast[]; actor: string; outcomes: SendOutcomes },
): Promise<void> {
  try {
    for (const [id, o] of await markSendBatchSubmitted(ctx, { kind: p.kind, broadcast: p.broadcast, actor: p.actor }))
      p.outcomes.set(id, o)
  } catch (error) {
    for (const b of p.broadcast) p.outcomes.set(b.order.orderId, { kind: 'failed', error })
  }
}
