import { WalletFailedError, WalletRejectedError } from '@/lib/web/errors/wallet'

/** EIP-1193's "user rejected the request" */
export const USER_REJECTED = 4001

/**
 * Runs one request to the wallet (`() => provider.request(...)`), its refusals as
 * WalletErrors: code 4001 (the person said no) is WalletRejectedError; anything else is
 * WalletFailedError with the wallet's own message.
 */
export async function walletRequest<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (error) {
    if (codeOf(error) === USER_REJECTED) throw new WalletRejectedError({ cause: error })
    throw new WalletFailedError({
      message: `The wallet could not do it: ${messageOf(error) ?? 'it gave no reason'}.`,
      cause: error,
    })
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
}

function messageOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined
  return typeof error.message === 'string' && error.message !== '' ? error.message : undefined
}
