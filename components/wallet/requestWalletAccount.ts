import { type Address, type EIP1193Provider, getAddress } from 'viem'
import { NoWalletError } from '@/lib/web/errors/wallet'
import { walletRequest } from './walletRequest'

/**
 * The wallet's selected account (`eth_requestAccounts`: the wallet asks the person to
 * connect the first time), checksummed. A wallet that gives no account is NoWalletError.
 */
export async function requestWalletAccount(provider: EIP1193Provider): Promise<Address> {
  const accounts = await walletRequest(() => provider.request({ method: 'eth_requestAccounts' }))
  const first = accounts[0]
  if (first === undefined) throw new NoWalletError()
  return getAddress(first)
}
