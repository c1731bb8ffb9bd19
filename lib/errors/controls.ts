import { BaseError } from './BaseError'
import { ReserveCheckRefusedError } from './reserves'

/**
 * Errors of the mint controls (docs/architecture.md invariant 6): the recipient allowlist
 * and the limits, checked at intake, at approval and by the worker before it signs
 * (public.check_mint_controls; lib/controls/mintControlsRefusal.ts). Codes in
 * `lib/errors/http.ts`: recipient_not_allowed 422, over_limit 422.
 */

/** The mint's recipient is not on the allowlist (allowed_recipients). */
export class RecipientNotAllowedError extends BaseError {
  override name = 'RecipientNotAllowedError'
  readonly to: string
  constructor({ to }: { to: string }) {
    super('recipient_not_allowed', `${to} is not on the recipient allowlist.`, {
      issues: [
        { path: 'to', message: 'is not on the recipient allowlist; an admin adds recipients on the Controls page' },
      ],
    })
    this.to = to
  }
}

/** Which limit an order would pass. */
export type MintLimitKind = 'max_order' | 'daily_cap'

/**
 * The order is above the per-order limit, or would take the rolling 24 h total above the
 * daily cap. The message names the limit and the figures in fine oz.
 */
export class OverLimitError extends BaseError {
  override name = 'OverLimitError'
  readonly limit: MintLimitKind
  readonly amountWei: bigint
  readonly limitWei: bigint
  /** the rolling 24 h total of the other orders (daily_cap only; 0 for max_order) */
  readonly usedWei: bigint
  constructor(p: { limit: MintLimitKind; amountWei: bigint; limitWei: bigint; usedWei?: bigint; message: string }) {
    super('over_limit', p.message, { issues: [{ path: 'amount', message: p.message }] })
    this.limit = p.limit
    this.amountWei = p.amountWei
    this.limitWei = p.limitWei
    this.usedWei = p.usedWei ?? 0n
  }
}

/**
 * The worker's check before signing refused a mint on the controls (a recipient removed
 * from the allowlist, limits lowered, or an order row changed since its intake). Permanent,
 * as the reserve refusals: dead letter, order failed with `reason`, bars freed, nothing
 * signed. `cause` is the RecipientNotAllowedError or OverLimitError.
 */
export class MintControlsRefusedError extends ReserveCheckRefusedError {
  override name = 'MintControlsRefusedError'
  constructor(error: RecipientNotAllowedError | OverLimitError) {
    super(error instanceof RecipientNotAllowedError ? 'recipient_not_allowed' : 'over_limit', error.message)
    this.cause = error
  }
}
