import { PermanentJobError } from './jobs'

/**
 * The worker's check before signing refused a mint (docs/architecture.md invariant 4,
 * worker/mint/checkBeforeSigning.ts). Each is permanent: the inventory or the chain
 * would have to change for a retry to pass, so the job goes to the dead letters at once
 * and its order fails with `reason`, a sentence an admin understands. Nothing was
 * signed, no nonce was taken. Their code is the check that refused (the order's webhook
 * and email say it; the admin pages show the reason).
 */
export class ReserveCheckRefusedError extends PermanentJobError {
  override name = 'ReserveCheckRefusedError'
  /**
   * which rule refused, for the timeline's data and the tests (recipient_not_allowed and
   * over_limit: the mint controls, lib/errors/controls.ts; approval_missing: four eyes,
   * lib/errors/approvals.ts)
   */
  readonly check:
    | 'bar_not_held'
    | 'amount_mismatch'
    | 'supply_exceeds_reserves'
    | 'recipient_not_allowed'
    | 'over_limit'
    | 'approval_missing'
    | 'bar_list_unverified'
  constructor(check: ReserveCheckRefusedError['check'], reason: string) {
    super(`refused to sign: ${reason}`, { code: check })
    this.check = check
  }
}

/** Why a bar of the order is no longer held by it. */
export type BarNotHeldState =
  /** reserved or backing, but absent from its vault's latest list */
  | 'missing'
  /** off the list and free */
  | 'withdrawn'
  /** listed and free: the order lost its hold (it was failed or cancelled meanwhile) */
  | 'available'
  /** reserved by or backing another order */
  | 'other_order'
  /** backing already: this order was confirmed, yet is being signed */
  | 'backing'
  /** held by this order, yet not one of its bars (mint_order_bars): a changed row */
  | 'not_of_order'
  /** the order has no bars at all */
  | 'no_bars'

/** A bar of the order is not held by it as `reserved`. */
export class BarNotHeldError extends ReserveCheckRefusedError {
  override name = 'BarNotHeldError'
  readonly bar: { serial: string; refiner: string; vault: string } | null
  readonly state: BarNotHeldState
  constructor(p: {
    bar: { serial: string; refiner: string; vault: string } | null
    state: BarNotHeldState
    detail: string
  }) {
    super('bar_not_held', p.detail)
    this.bar = p.bar
    this.state = p.state
  }
}

/** The order's amount is not the fine weight of its bars (the row was changed after the intake). */
export class OrderAmountMismatchError extends ReserveCheckRefusedError {
  override name = 'OrderAmountMismatchError'
  readonly amountWei: bigint
  readonly barsWei: bigint
  constructor(p: { amountWei: bigint; barsWei: bigint; detail: string }) {
    super('amount_mismatch', p.detail)
    this.amountWei = p.amountWei
    this.barsWei = p.barsWei
  }
}

/** The mint would leave the token's supply above the fine weight of the bars backing it. */
export class ReservesExceededError extends ReserveCheckRefusedError {
  override name = 'ReservesExceededError'
  readonly totalSupplyWei: bigint
  readonly amountWei: bigint
  readonly reservesWei: bigint
  constructor(p: { totalSupplyWei: bigint; amountWei: bigint; reservesWei: bigint; detail: string }) {
    super('supply_exceeds_reserves', p.detail)
    this.totalSupplyWei = p.totalSupplyWei
    this.amountWei = p.amountWei
    this.reservesWei = p.reservesWei
  }
}
