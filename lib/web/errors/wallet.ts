import { BaseError } from '@/lib/errors/BaseError'

/**
 * Why a signature could not be had in the browser: no injected wallet, the person
 * refused (EIP-1193 code 4001), the wallet's account is not a key bound to them, or the
 * wallet (or the dev signer) failed. No API answer carries these codes; the pages show
 * `message`. Client-safe: imports nothing server-only.
 */
export type WalletErrorCode = 'no_wallet' | 'wallet_rejected' | 'wrong_account' | 'wallet_failed'

export class WalletError extends BaseError<WalletErrorCode> {
  override name = 'WalletError'
}

export class NoWalletError extends WalletError {
  override name = 'NoWalletError'
  constructor() {
    super('no_wallet', 'No browser wallet found: install or unlock one (it provides window.ethereum), then try again.')
  }
}

export class WalletRejectedError extends WalletError {
  override name = 'WalletRejectedError'
  constructor({ cause }: { cause?: unknown } = {}) {
    super('wallet_rejected', 'The request was declined in the wallet: nothing was signed.', { cause })
  }
}

export class WrongAccountError extends WalletError {
  override name = 'WrongAccountError'
  readonly account: string
  constructor({ account, bound }: { account: string; bound: readonly string[] }) {
    super(
      'wrong_account',
      bound.length === 0
        ? `The wallet's account ${account} is not bound to you, and no key is: bind one on your signing-key page first.`
        : `The wallet's account ${account} is not the key bound to you (${bound.join(', ')}): switch accounts in the wallet.`,
    )
    this.account = account
  }
}

export class WalletFailedError extends WalletError {
  override name = 'WalletFailedError'
  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super('wallet_failed', message, { cause })
  }
}
