import type { KeySigner } from '@/components/wallet/keySigners'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import type { ApiMintApproval } from '@/lib/web/signing/apiTypes'
import { postApproval } from './approvalsApi'

export type SignAndApproveParameters = {
  orderId: string
  /** the answer of GET .../approval: its typed data is signed exactly as given */
  approval: ApiMintApproval
  /** the keys bound to the signed-in user; the wallet refuses another account before signing */
  bound?: readonly string[]
}

/**
 * An approval: the signer (the person's wallet, or the dev signer in dev mode) signs the
 * order's intent, then POST .../approve carries the signature. The order answered is
 * still `awaiting_approval` while fewer than `required` approvers have signed.
 */
export async function signAndApprove(
  signer: KeySigner,
  { orderId, approval, bound }: SignAndApproveParameters,
): Promise<ApiMintOrder> {
  const { signature } = await signer.signTypedData({ typedData: approval.typedData, bound })
  return postApproval(orderId, { signature })
}
