import { type Address, decodeFunctionData, type Hex, type PublicClient } from 'viem'
import type { Tx } from '@/db/client'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { checkMintControls } from '@/lib/controls/checkMintControls'
import { MintControlsRefusedError, OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { BarNotHeldError, OrderAmountMismatchError, ReservesExceededError } from '@/lib/errors/reserves'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { readReserveTotals } from '@/lib/reserves/readReserveTotals'
import { lockVault } from '@/lib/vault/lockVault'
import { listOrderBars, type OrderBar } from '../db/listOrderBars'
import type { MintOrder } from '../db/readMintOrderRow'

export type CheckBeforeSigningParameters = {
  chain: PublicClient
  tokenAddress: Address
  /** the order, locked FOR UPDATE by the caller's transaction */
  order: MintOrder
  /** the calldata about to be signed: GoldMinter.attestAndMint(list, custodian, signature, intent, approvals) */
  data: Hex
  /**
   * a send batch reads these once for all its orders (worker/mint/reserveSendBatch.ts), in
   * the same order (totalSupply first), after every order and vault of the batch is locked;
   * its orders have no stored transaction, so no total holds them and none is excluded
   */
  reserves?: { totalSupplyWei: bigint; backingWei: bigint; inFlightWei: bigint }
  /**
   * the order's bars, read FOR SHARE for the whole batch after its vaults were locked
   * (worker/db/listBarsOfOrders.ts)
   */
  bars?: OrderBar[]
  /**
   * the mint controls' verdict on this order, read once for the whole batch
   * (worker/controls/checkMintControlsOfOrders.ts; null: it passes); without it, the order's
   * own check runs here
   */
  controls?: RecipientNotAllowedError | OverLimitError | null
}

export type CheckBeforeSigningReturnType = {
  amountWei: bigint
  totalSupplyWei: bigint
  /** backing + in flight (other orders) + this order's bars */
  reservesWei: bigint
}

/**
 * Chainlink's Secure Mint idea, enforced by the worker (docs/architecture.md invariant 4):
 * right before the FIRST signature of an order, in the transaction that holds the order's
 * lock and before a nonce is taken or KMS is asked,
 * 1. every bar of the order is still held by it as `reserved` (not missing from its
 *    vault's latest list, withdrawn, freed or taken by another order);
 * 2. the amount being signed (the calldata's, and the order row's) is the fine weight
 *    of those bars;
 * 3. (the approvers' signatures and the custodian's bar list were verified when the
 *    calldata was built under this lock: worker/approvals/buildMintCall.ts) the
 *    recipient is on the allowlist and the amount within the per-order limit and
 *    the rolling 24 h cap (lib/controls/checkMintControls, as at intake and approval;
 *    a MintControlsRefusedError);
 * 4. on-chain totalSupply + this amount <= backing + in flight (other orders) + this
 *    order's bars: the mint cannot leave supply above reserves.
 * A refusal throws a ReserveCheckRefusedError (permanent) whose reason names the bar or
 * the figures. The vault's lock is held shared, so no import changes the bars until the
 * signature is stored. totalSupply is read BEFORE the reserve totals: every token on
 * chain was signed (stored) before that read, so its bars are already in the totals
 * read after it; the other order a concurrent signer is signing counts in neither.
 */
export async function checkBeforeSigning(
  tx: Tx,
  p: CheckBeforeSigningParameters,
): Promise<CheckBeforeSigningReturnType> {
  const { order } = p
  if (!p.bars) await lockVault(tx, { vault: order.vault, mode: 'shared' })
  const bars = p.bars ?? (await listOrderBars(tx, { orderId: order.id }))
  const own = bars.filter((b) => b.ofOrder)
  if (own.length === 0) {
    throw new BarNotHeldError({ bar: null, state: 'no_bars', detail: `order ${order.id} has no bars in the inventory` })
  }
  for (const bar of bars) refuseUnlessHeld(bar, order.id)

  const barsWei = own.reduce((sum, b) => sum + b.fineMilliOz, 0n) * WEI_PER_MILLI_OZ
  const rowWei = BigInt(order.amountWei)
  const signedWei = mintAmountOf(p.data)
  for (const [what, amount] of [
    ["the order's amount", rowWei],
    ['the amount being signed', signedWei],
  ] as const) {
    if (amount !== barsWei) {
      throw new OrderAmountMismatchError({
        amountWei: amount,
        barsWei,
        detail: `${what} ${oz(amount)} oz is not the fine weight of its ${own.length} bar${own.length === 1 ? '' : 's'}, ${oz(barsWei)} oz`,
      })
    }
  }

  if (p.controls !== undefined) {
    if (p.controls) throw new MintControlsRefusedError(p.controls)
  } else await checkControls(tx, { to: order.toAddress, amountWei: barsWei, orderId: order.id })

  const totalSupplyWei =
    p.reserves?.totalSupplyWei ??
    (await p.chain.readContract({ address: p.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' }))
  const totals = p.reserves ?? (await readReserveTotals(tx, { excludeOrderId: order.id, withFree: false }))
  const reservesWei = totals.backingWei + totals.inFlightWei + barsWei
  if (totalSupplyWei + barsWei > reservesWei) {
    throw new ReservesExceededError({
      totalSupplyWei,
      amountWei: barsWei,
      reservesWei,
      detail: `supply ${oz(totalSupplyWei)} oz + this ${oz(barsWei)} oz would exceed reserves ${oz(reservesWei)} oz by ${oz(totalSupplyWei + barsWei - reservesWei)} oz`,
    })
  }
  return { amountWei: barsWei, totalSupplyWei, reservesWei }
}

/**
 * The recipient allowlist and the limits, again (they may have changed since the intake,
 * or the row may have): a refusal is permanent. Without the daily cap's lock: this order
 * was counted at its intake, so it adds nothing, and this transaction goes on to sign
 * through KMS, which must not serialise every worker.
 */
async function checkControls(tx: Tx, p: { to: string; amountWei: bigint; orderId: string }): Promise<void> {
  try {
    await checkMintControls(tx, { to: p.to, amountWei: p.amountWei, excludeOrderId: p.orderId, lock: false })
  } catch (error) {
    if (error instanceof RecipientNotAllowedError || error instanceof OverLimitError)
      throw new MintControlsRefusedError(error)
    throw error
  }
}

/** Refuses a bar that the order does not hold as `reserved`, saying why as an admin reads it. */
function refuseUnlessHeld(bar: OrderBar, orderId: string): void {
  const name = `bar ${bar.serial} / ${bar.refiner}`
  const listed = bar.latestListAsOf
    ? `${bar.vault}'s latest list (${bar.latestListAsOf.toISOString().slice(0, 10)})`
    : `any list of ${bar.vault}`
  const refuse = (state: BarNotHeldError['state'], detail: string) => {
    throw new BarNotHeldError({ bar: { serial: bar.serial, refiner: bar.refiner, vault: bar.vault }, state, detail })
  }
  if (!bar.ofOrder) refuse('not_of_order', `${name} is held by this order but is not one of its bars`)
  if (bar.holderId !== null && bar.holderId !== orderId)
    refuse('other_order', `${name} is held by another order (${bar.holderId})`)
  if (bar.status === 'missing') refuse('missing', `${name} is missing from ${listed}`)
  if (bar.status === 'withdrawn') refuse('withdrawn', `${name} was withdrawn: it is not on ${listed}`)
  if (bar.status === 'available')
    refuse('available', `${name} is no longer reserved by this order (it is free on ${listed})`)
  if (bar.status === 'backing') refuse('backing', `${name} already backs this order's tokens`)
}

/** The intent's amount in attestAndMint calldata. */
function mintAmountOf(data: Hex): bigint {
  const call = decodeFunctionData({ abi: goldMinterAbi, data })
  if (call.functionName !== 'attestAndMint')
    throw new Error(`the calldata to sign is ${call.functionName}, not attestAndMint`)
  return call.args[3].amount
}

/** wei as fine ounces, at least 3 decimals, exact ('401.084', '0.000000000000000001'). */
function oz(wei: bigint): string {
  return formatDecimal(wei, { decimals: 18, minFraction: 3 })
}
