import { BaseError } from '@/lib/errors/BaseError'

/** Errors of redemptions (POST /api/gold/redemptions and its approvals). */

/** The deposit is already matched by another redemption that is not rejected or cancelled. */
export class DepositAlreadyUsedError extends BaseError {
  override name = 'DepositAlreadyUsedError'
  constructor(options: { cause?: unknown } = {}) {
    super('deposit_already_used', 'This deposit is already matched by another redemption.', {
      ...options,
      issues: [{ path: 'depositTx', message: 'already matched by another redemption' }],
    })
  }
}

/** The token has frozen the account: its deposit is not redeemed (GoldToken.isFrozen, the chain's word). */
export class AccountFrozenError extends BaseError {
  override name = 'AccountFrozenError'
  constructor({ address, path }: { address: string; path: string }) {
    super('account_frozen', `The account ${address} is frozen: its deposit cannot be redeemed.`, {
      issues: [{ path, message: `${address} is frozen` }],
    })
  }
}
