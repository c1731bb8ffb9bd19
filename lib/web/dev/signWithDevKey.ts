import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiKeySignature, DevSignBody } from '@/lib/web/signing/apiTypes'
import { toViemTypedData } from '@/lib/web/signing/toViemTypedData'
import { devKeyNameOf } from './devKeyNameOf'

export type SignWithDevKeyContext = {
  /** production mode (lib/config/loadConfig.ts): the dev signer does not exist there */
  production: boolean
}

export type SignWithDevKeyParameters = { user: SessionUser; body: DevSignBody }

/**
 * The dev signer (dev mode only): signs typed data (as eth_signTypedData_v4 would) or a
 * text (as personal_sign would) with the signed-in user's dev key, the public test
 * mnemonic's (lib/keys/devKeys.ts). In production mode, or for a user who holds no dev
 * key, it is 404: production never signs with these keys, and the browser never holds
 * the mnemonic.
 *
 *   const { address, signature } = await signWithDevKey({ production: false }, { user, body: { typedData } })
 */
export async function signWithDevKey(
  { production }: SignWithDevKeyContext,
  { user, body }: SignWithDevKeyParameters,
): Promise<ApiKeySignature> {
  if (production) throw new NotFoundError({ what: 'Dev signer' })
  const name = devKeyNameOf(user.email)
  if (name === null) throw new NotFoundError({ what: 'Dev key' })
  const account = devKey(name)
  if ('message' in body) return { address: account.address, signature: await account.signMessage(body) }
  return { address: account.address, signature: await account.signTypedData(toViemTypedData(body.typedData)) }
}
