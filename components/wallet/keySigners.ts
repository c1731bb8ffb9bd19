import { NoWalletError } from '@/lib/web/errors/wallet'
import type { ApiKeySignature, ApiTypedData } from '@/lib/web/signing/apiTypes'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import { personalSignWithWallet } from './personalSignWithWallet'
import { readInjectedProvider } from './readInjectedProvider'
import { requestDevSignature } from './requestDevSignature'
import { signTypedDataWithWallet } from './signTypedDataWithWallet'

export type { KeySignerKind }

/** The two ways a page gets a person's signature, behind one shape. */
export type KeySigner = {
  kind: KeySignerKind
  signTypedData: (p: { typedData: ApiTypedData; bound?: readonly string[] }) => Promise<ApiKeySignature>
  personalSign: (p: { message: string }) => Promise<ApiKeySignature>
}

/** The injected wallet, looked up at each request (an extension may load after the page): NoWalletError without one. */
export const walletSigner: KeySigner = {
  kind: 'wallet',
  signTypedData: (p) => signTypedDataWithWallet(injectedOrThrow(), p),
  personalSign: (p) => personalSignWithWallet(injectedOrThrow(), p),
}

/** The dev signer (POST /api/dev/sign); the server refuses it outside dev mode. */
export const devSigner: KeySigner = {
  kind: 'dev',
  signTypedData: ({ typedData }) => requestDevSignature({ typedData }),
  personalSign: ({ message }) => requestDevSignature({ message }),
}

export function keySigner(kind: KeySignerKind): KeySigner {
  return kind === 'dev' ? devSigner : walletSigner
}

function injectedOrThrow() {
  const provider = readInjectedProvider()
  if (provider === null) throw new NoWalletError()
  return provider
}
