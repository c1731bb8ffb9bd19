import { type EIP1193Provider, stringToHex } from 'viem'
import type { ApiKeySignature } from '@/lib/web/signing/apiTypes'
import { requestWalletAccount } from './requestWalletAccount'
import { walletRequest } from './walletRequest'

/**
 * Asks the wallet to sign a text with its selected account (`personal_sign`, the text
 * sent hex-encoded as wallets expect): how a person proves they hold a key they bind.
 */
export async function personalSignWithWallet(
  provider: EIP1193Provider,
  { message }: { message: string },
): Promise<ApiKeySignature> {
  const address = await requestWalletAccount(provider)
  const signature = await walletRequest(() =>
    provider.request({ method: 'personal_sign', params: [stringToHex(message), address] }),
  )
  return { address, signature }
}
