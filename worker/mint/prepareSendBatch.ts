import type { Address, Hex } from 'viem'
import { PermanentJobError } from '@/lib/errors/jobs'
import { ReserveCheckRefusedError } from '@/lib/errors/reserves'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { isUuid } from '@/lib/mint/isUuid'
import { MintRevertedError } from '@/worker/errors/chain'
import { capFees, type Fees } from '../chain/capFees'
import { estimateFees } from '../chain/estimateFees'
import { estimateMintGas } from '../chain/estimateMintGas'
import { type BoundNonce, listBoundNonces } from '../db/listBoundNonces'
import type { ChainTx } from '../db/listOrderTxs'
import { listTxsOfOperations } from '../db/listTxsOfOperations'
import type { OperationKind, OperationRow } from '../operations/OperationKind'
import type { WorkerContext } from '../runtime/context'
import { mapWithLimit } from './mapWithLimit'
import { recordFeeCapped } from './recordFeeCapped'
import { type SendOrder, type SendOutcomes, sendEventOf } from './sendOutcome'
import { TOKEN_PAUSED_ERROR, tokenPausedWait } from './tokenPausedWait'

export type PrepareSendBatchParameters<Row extends OperationRow> = {
  /** the kind of every operation of the batch (docs/decisions/049-one-pipeline-for-every-operation.md) */
  kind: OperationKind<Row>
  orders: readonly SendOrder[]
  actor: string
}

/**
 * An operation that needs its first signature: simulated, with its calldata and gas, and its row as read before the
 * lock; `bound` when it already holds a nonce.
 */
export type ToSign<Row extends OperationRow> = {
  order: SendOrder
  row: Row
  data: Hex
  gas: bigint
  bound: BoundNonce | undefined
}

/** An order with stored transactions: re-send the newest (never sign again). */
export type ToResend = { order: SendOrder; txs: ChainTx[] }

export type PrepareSendBatchReturnType<Row extends OperationRow> = {
  /** orders decided here: settled, failed (unknown, bad recipient, a revert), wait (fee ceiling) */
  outcomes: SendOutcomes
  toSign: ToSign<Row>[]
  toResend: ToResend[]
  /** one fee estimate for the batch, within the fee ceiling */
  fees: Fees
  /** each signer's mined transaction count, for the in-flight bound */
  minedCounts: Map<Address, bigint>
}

/**
 * Everything of a send batch that needs no lock, before any nonce is taken: which
 * orders are settled, which have stored bytes to re-send, which need signing (the
 * database's reads and the chain's below issued together); ONE fee
 * estimate (a fee above the ceiling holds every signature back: 'fee_capped', wait);
 * each signer's mined count; and per order to sign its calldata (the kind's prepareCalls; a mint's
 * buildMintCall: the approvers' signatures and the custodian's bar list verified) and a simulation
 * (estimateMintGas, in parallel, one JSON-RPC batch): a refusal of the kind is a
 * permanent failure with a 'refused' event, a revert one with the contract's reason;
 * neither costs a nonce; the kind's alreadyDone revert (OrderAlreadyMinted) without a stored
 * transaction is reconciled from the chain; a TokenPaused revert (a mint or a burn while the token is paused)
 * is a wait (tokenPausedWait): nothing signed, no attempt spent, looked at again until the token is unpaused.
 */
export async function prepareSendBatch<Row extends OperationRow>(
  ctx: WorkerContext,
  { kind, orders, actor }: PrepareSendBatchParameters<Row>,
): Promise<PrepareSendBatchReturnType<Row>> {
  const outcomes: SendOutcomes = new Map()
  const valid = orders.filter((o) => {
    if (isUuid(o.orderId)) return true
    outcomes.set(o.orderId, {
      kind: 'failed',
      error: new PermanentJobError(`${kind.noun} id ${o.orderId} is not a uuid`),
    })
    return false
  })
  const orderIds = valid.map((o) => o.orderId)
  const candidates = [...ctx.signers.keys()]
  // the chain's side (one fee estimate, each signer's mined count) is read beside the
  // database's, not after it: awaited only if an order needs signing (else its answer is dropped)
  const chainState = Promise.all([
    estimateFees(ctx.chain),
    Promise.all(candidates.map((address) => ctx.chain.getTransactionCount({ address, blockTag: 'latest' }))),
  ])
  chainState.catch(() => {})
  const [rows, txsByOrder, bound] = await Promise.all([
    kind.lock(ctx.db, { ids: orderIds, lock: false }),
    listTxsOfOperations(ctx.db, { kind: kind.kind, ids: orderIds }),
    listBoundNonces(ctx.db, { kind: kind.kind, ids: orderIds }),
  ])
  const toResend: ToResend[] = []
  const pending: { order: SendOrder; row: Row }[] = []
  for (const order of valid) {
    const row = rows.get(order.orderId)
    const txs = txsByOrder.get(order.orderId) ?? []
    const settled = row && kind.settledOf({ row })
    const refusal = row && kind.refusalOf({ row })
    if (!row)
      outcomes.set(order.orderId, {
        kind: 'failed',
        error: new PermanentJobError(`${kind.noun} ${order.orderId} does not exist`),
      })
    else if (settled) outcomes.set(order.orderId, { kind: 'settled', status: settled })
    else if (txs.length > 0) toResend.push({ order, txs })
    else if (refusal) outcomes.set(order.orderId, { kind: 'failed', error: new PermanentJobError(refusal) })
    else pending.push({ order, row })
  }

  const minedCounts = new Map<Address, bigint>()
  if (pending.length === 0)
    return { outcomes, toSign: [], toResend, fees: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, minedCounts }
  const [from] = candidates
  if (!from) throw new PermanentJobError('this worker has no signer')

  const [wanted, counts] = await chainState
  for (const [i, address] of candidates.entries()) minedCounts.set(address, BigInt(counts[i] ?? 0))
  const ceiling = capFees({ fees: wanted, baseFeePerGas: wanted.baseFeePerGas, ceiling: ctx.settings.feeCeiling })
  if (ceiling.capped) {
    await holdForFees(ctx, { kind, orders: pending.map((p) => p.order), actor, reason: ceiling.reason, wanted })
    for (const p of pending)
      outcomes.set(p.order.orderId, { kind: 'wait', reason: ceiling.reason, retryInMs: ctx.settings.feeCappedRetryMs })
    return { outcomes, toSign: [], toResend, fees: ceiling.fees, minedCounts }
  }

  // the calldata of each operation: its signed intent verified (the kind's; again under the lock in
  // reserveSendBatch); a refusal is that operation's permanent failure
  const callOf = await kind.prepareCalls(ctx, { rows: pending.map((p) => p.row) })
  // all in the same tick: the chain client sends them as JSON-RPC batches (lib/chain/createChainClient.ts)
  const simulated = await mapWithLimit({
    items: pending,
    limit: pending.length,
    fn: async (p) =>
      estimateMintGas(ctx.chain, {
        minterAddress: ctx.minterAddress,
        from: bound.get(p.order.orderId)?.signerAddress ?? from,
        data: await callOf({ row: p.row }),
      }),
  })
  const toSign: ToSign<Row>[] = []
  const refusals: RecordJobEventParameters[] = []
  for (const [i, p] of pending.entries()) {
    const result = simulated[i]
    if (result?.status === 'fulfilled') {
      toSign.push({
        order: p.order,
        row: p.row,
        data: result.value.data,
        gas: result.value.gas,
        bound: bound.get(p.order.orderId),
      })
      continue
    }
    const error: unknown = result?.reason
    if (error instanceof MintRevertedError && error.errorName === TOKEN_PAUSED_ERROR) {
      outcomes.set(p.order.orderId, tokenPausedWait())
    } else if (error instanceof MintRevertedError && error.errorName === kind.alreadyDone) {
      try {
        await kind.reconcile(ctx, { order: p.order, actor })
        outcomes.set(p.order.orderId, { kind: 'settled', status: 'confirmed' })
      } catch (failure) {
        outcomes.set(p.order.orderId, { kind: 'failed', error: failure })
      }
    } else {
      // the kind's refusal (an approval missing, a bar list unverified): a 'refused' event, as under the lock
      if (error instanceof ReserveCheckRefusedError)
        refusals.push({
          ...sendEventOf({ order: p.order, actor, task: kind.sendTask }),
          event: 'refused',
          detail: error.reason,
          data: { check: error.check },
        })
      outcomes.set(p.order.orderId, { kind: 'failed', error })
    }
  }
  await recordJobEvents(ctx.db, refusals)
  return { outcomes, toSign, toResend, fees: ceiling.fees, minedCounts }
}

/** The fee ceiling holds these orders back, nothing signed: a 'fee_capped' event on each timeline, once per wait. */
async function holdForFees<Row extends OperationRow>(
  ctx: WorkerContext,
  p: {
    kind: OperationKind<Row>
    orders: SendOrder[]
    actor: string
    reason: string
    wanted: Fees & { baseFeePerGas: bigint }
  },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await p.kind.lock(tx, { ids: p.orders.map((o) => o.orderId), lock: true })
    for (const order of p.orders) {
      await recordFeeCapped(tx, {
        ...sendEventOf({ order, actor: p.actor, task: p.kind.sendTask }),
        orderId: order.orderId,
        detail: `${p.reason}: nothing signed, the mint waits for lower fees`,
        data: {
          baseFeePerGas: p.wanted.baseFeePerGas.toString(),
          maxFeePerGas: p.wanted.maxFeePerGas.toString(),
          maxPriorityFeePerGas: p.wanted.maxPriorityFeePerGas.toString(),
        },
      })
    }
  })
  ctx.log.warn(
    { reason: p.reason, orders: p.orders.length, retryInMs: ctx.settings.feeCappedRetryMs },
    'fee ceiling: mints held back, nothing signed',
  )
}
