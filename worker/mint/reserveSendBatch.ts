import type { Address, Hex } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { ReserveCheckRefusedError } from '@/lib/errors/reserves'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { lockVault } from '@/lib/vault/lockVault'
import { checkMintControlsOfOrders } from '@/worker/controls/checkMintControlsOfOrders'
import { buildMintCall } from '../approvals/buildMintCall'
import { readMinterRules } from '../approvals/readMinterRules'
import type { Fees } from '../chain/capFees'
import { listBarsOfOrders } from '../db/listBarsOfOrders'
import { listBoundNonces } from '../db/listBoundNonces'
import { listOrderSignatures } from '../db/listOrderSignatures'
import { listTxsOfOrders } from '../db/listTxsOfOrders'
import { lockMintOrders } from '../db/lockMintOrders'
import { reserveNonces } from '../db/reserveNonces'
import type { WorkerContext } from '../runtime/context'
import { checkBeforeSigning } from './checkBeforeSigning'
import type { ToResend, ToSign } from './prepareSendBatch'
import { type SendOrder, type SendOutcomes, sendEventOf } from './sendOutcome'

export type ReserveSendBatchParameters = {
  toSign: readonly ToSign[]
  fees: Fees
  minedCounts: ReadonlyMap<Address, bigint>
  actor: string
}

/** An order with its nonce bound and committed, ready to be signed outside any lock. */
export type Reserved = { order: SendOrder; signerAddress: Address; nonce: bigint; data: Hex; gas: bigint }

export type ReserveSendBatchReturnType = { reserved: Reserved[]; toResend: ToResend[]; outcomes: SendOutcomes }

/**
 * The batch's SHORT transaction: lock its orders (id order), re-read them
 * under the lock (settled, or signed meanwhile by another run: re-send) and take the
 * vaults' shared locks, in one round trip; read totalSupply (asked for beside BEGIN and
 * the locks) then the reserve totals ONCE, run the check before signing of each order
 * (docs/decisions/028-check-before-signing.md: a refusal is that order's permanent failure, with a 'refused' event;
 * nothing reserved for it), then take consecutive nonces of one signer for the orders
 * that hold none (reserveNonces: `reserved` rows bound to their orders,
 * 'nonce_reserved' events) and commit. An order already holding a nonce keeps it. Orders
 * beyond every signer's in-flight bound get no nonce: wait. KMS is not called here.
 */
export async function reserveSendBatch(
  ctx: WorkerContext,
  p: ReserveSendBatchParameters,
): Promise<ReserveSendBatchReturnType> {
  const outcomes: SendOutcomes = new Map()
  const toResend: ToResend[] = []
  const reserved: Reserved[] = []
  const orderIds = p.toSign.map((s) => s.order.orderId)
  // the vaults of the batch's orders, as prepareSendBatch read them
  // (an order's vault never changes: db/functions/mint_orders_vault_fixed.sql refuses it)
  const vaults = [...new Set(p.toSign.map((s) => s.vault))].sort()
  // totalSupply is asked for now, beside the transaction's BEGIN and locks, and awaited
  // before the reserve totals are read (every token on chain at this read
  // had its transaction stored before it, so its bars are in the totals read after it)
  const supply = ctx.chain.readContract({ address: ctx.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  supply.catch(() => {})
  const minterRules = readMinterRules(ctx)
  minterRules.catch(() => {})
  await ctx.db.transaction(async (tx) => {
    // ONE round trip, in this order on the connection: the orders' locks, their stored
    // transactions and bound nonces under them, then the vaults' shared locks
    const [rows, txsByOrder, bound] = await Promise.all([
      lockMintOrders(tx, { orderIds, lock: true }),
      listTxsOfOrders(tx, { orderIds }),
      listBoundNonces(tx, { orderIds }),
      ...vaults.map((vault) => lockVault(tx, { vault, mode: 'shared' })),
    ])
    const live: ToSign[] = []
    for (const s of p.toSign) {
      const row = rows.get(s.order.orderId)
      const txs = txsByOrder.get(s.order.orderId) ?? []
      if (!row || row.status === 'confirmed' || row.status === 'cancelled')
        outcomes.set(s.order.orderId, { kind: 'settled', status: row?.status ?? 'gone' })
      else if (txs.length > 0) toResend.push({ order: s.order, txs })
      else if (row.vault !== s.vault)
        throw new Error(`order ${s.order.orderId} is of vault ${row.vault}, not ${s.vault} as read before its lock`)
      else live.push({ ...s, bound: bound.get(s.order.orderId) })
    }
    if (live.length === 0) return

    // totalSupply BEFORE the totals: its answer is in before the totals' statement is sent
    const totalSupplyWei = await supply
    // the totals, every order's bars and the mint controls' verdicts, one statement each under the vault locks taken
    // above: pipelined, one round trip
    const [totals, barsByOrder, signaturesByOrder, controls] = await Promise.all([
      readReserveTotals(tx, { withFree: false }),
      listBarsOfOrders(tx, { orderIds: live.map((s) => s.order.orderId) }),
      listOrderSignatures(tx, { orderIds: live.map((s) => s.order.orderId) }),
      checkMintControlsOfOrders(tx, {
        orders: live.flatMap((s) => {
          const row = rows.get(s.order.orderId)
          return row ? [{ orderId: row.id, to: row.toAddress, amountWei: BigInt(row.amountWei) }] : []
        }),
      }),
    ])
    const reserves = { totalSupplyWei, backingWei: totals.backingWei, inFlightWei: totals.inFlightWei }
    const events: RecordJobEventParameters[] = []
    const passed: ToSign[] = []
    const rules = await minterRules
    // the checks only read: issued together. Under the order's lock the worker rebuilds the
    // calldata it signs from the locked order, its bars and the signatures (buildMintCall:
    // every approval and the bar list verified again); what it signs is that, never the
    // calldata simulated before the lock
    const checks = await Promise.allSettled(
      live.map(async (s) => {
        const order = rows.get(s.order.orderId)
        if (!order) throw new Error(`order ${s.order.orderId} vanished under its lock`)
        const bars = barsByOrder.get(s.order.orderId) ?? []
        const call = await buildMintCall(ctx, tx, {
          order,
          bars,
          signatures: signaturesByOrder.get(s.order.orderId) ?? [],
          rules,
        })
        s.data = call.data
        return checkBeforeSigning(tx, {
          chain: ctx.chain,
          tokenAddress: ctx.tokenAddress,
          order,
          data: call.data,
          reserves,
          bars,
          controls: controls.get(s.order.orderId) ?? null,
        })
      }),
    )
    for (const [i, s] of live.entries()) {
      const base = sendEventOf(s.order, p.actor)
      events.push({
        ...base,
        event: 'simulated',
        detail: `mint simulated: gas ${s.gas}, max fee ${p.fees.maxFeePerGas} wei`,
      })
      const check = checks[i]
      if (check?.status === 'fulfilled') {
        passed.push(s)
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
              ...sendEventOf(s.order, p.actor),
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
        orderIds: fresh.map((s) => s.order.orderId),
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
