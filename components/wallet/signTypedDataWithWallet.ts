import type { EIP1193Provider } from 'viem'
import { WrongAccountError } from '@/lib/web/errors/wallet'
import type { ApiKeySignature, ApiTypedData } from '@/lib/web/signing/apiTypes'
import { requestWalletAccount } from './requestWalletAccount'
import { walletRequest } from './walletRequest'

export type SignTypedDataWithWalletParameters = {
  /** as the API gave it (numbers as decimal strings): sent to the wallet as JSON, unchanged */
  typedData: ApiTypedData
  /** the keys bound to the signed-in user; another account is refused before the wallet is asked to sign */
  bound?: readonly string[]
}

/**
 * Asks the wallet to sign EIP-712 typed data (`eth_signTypedData_v4`) with its selected
 * account. Refusals: WrongAccountError (not a bound key), WalletRejectedError (4001),
 * WalletFailedError.
 *
 *   const { address, signature } = await signTypedDataWithWallet(provider, { typedData, bound })
 */
export async function signTypedDataWithWallet(
  provider: EIP1193Provider,
  { typedData, bound }: SignTypedDataWithWalletParameters,
): Promise<ApiKeySignature> {
  const address = await requestWalletAccount(provider)
  if (bound !== undefined && !bound.some((key) => key.toLowerCase() === address.toLowerCase())) {
    throw new WrongAccountError({ account: address, bound })
  }
  const signature = await walletRequest(() =>
    provider.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] }),
  )
  return { address, signature }
}
