import { getAddress, type Hex, isAddress, type TypedDataDefinition } from 'viem'
import type { SignerSignature } from '@/lib/chain/typedData'
import type { StoredSignature } from '../db/listOrderSignatures'
import type { WorkerContext } from '../runtime/context'
import { isValidSignature } from './isValidSignature'

export type CountValidSignaturesParameters = {
  signatures: readonly StoredSignature[]
  typedData: TypedDataDefinition
  /** hashTypedData(typedData) */
  digest: Hex
  /** the lower-case keys the contract counts (its approvers, or its admins) */
  keys: ReadonlySet<string>
  /** how a refusal names them: 'approver' or 'admin' */
  role: string
  /** a user whose key never counts (an order's requester); none when absent */
  excluded?: string
}

/**
 * THE worker's count of stored signatures, as GoldMinter will count them, trusting no row the web wrote
 * alone: a signature counts only when its key is bound to a user (user_signing_keys, read with it), that
 * user is not `excluded` and has not counted already, the key is one of `keys` on chain, and the signature
 * is valid for the typed data (isValidSignature). Returns those counted and why each other did not.
 */
export async function countValidSignatures(
  ctx: Pick<WorkerContext, 'chain'>,
  p: CountValidSignaturesParameters,
): Promise<{ counted: SignerSignature[]; refused: string[] }> {
  const counted: SignerSignature[] = []
  const users = new Set<string>()
  const refused: string[] = []
  for (const s of p.signatures) {
    if (!isAddress(s.signerAddress, { strict: false })) {
      refused.push(`${s.signerAddress} is not an address`)
      continue
    }
    const signer = getAddress(s.signerAddress)
    if (s.keyUserId === null) refused.push(`${signer} is bound to no user`)
    else if (s.keyUserId === p.excluded) refused.push(`${signer} is the requester's own key`)
    else if (users.has(s.keyUserId)) refused.push(`${signer}'s user signed already`)
    else if (!p.keys.has(signer.toLowerCase())) refused.push(`${signer} is not an ${p.role} on chain`)
    else if (
      !(await isValidSignature(ctx, {
        signer,
        signature: s.signature as Hex,
        digest: p.digest,
        typedData: p.typedData,
      }))
    )
      refused.push(`${signer}'s signature is not valid for this ${p.role === 'admin' ? 'change' : "order's intent"}`)
    else {
      users.add(s.keyUserId)
      counted.push({ signer, signature: s.signature as Hex })
    }
  }
  return { counted, refused }
}
