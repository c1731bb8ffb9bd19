import type { Db } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'
import { proposeOnChainChange } from '@/lib/web/changes/proposeOnChainChange'
import { ConflictError } from '@/lib/web/errors/resource'
import { readPendingNonceOrThrow } from './readPendingNonceOrThrow'

export type ProposeNonceCancelParameters = {
  signerAddress: string
  nonce: number
  /** the author's signature of the nonce.cancel change, with the id and deadline its typed data gave */
  body: { changeId: string; deadline: string; signature: string }
  author: AdminActor
  minter: MinterReader
}

/**
 * An admin proposes to cancel one signer's pending nonce (decision 064): a control change `nonce.cancel`
 * `{ signerAddress, nonce }` signed as a ControlChange by the author, as every change that needs admins' keys
 * (proposeOnChainChange: the signature judged by the chain's admin set, the change and its `change.propose` audit
 * row in one transaction). Only a mint's nonce is cancelled, while its order is pending or submitted (409 otherwise;
 * 404 for a nonce not pending). A second admin's signature (POST /api/admin/changes/{changeId}/confirm) queues the
 * worker's nonce_cancel, which checks both signatures again before it cancels anything.
 */
export async function proposeNonceCancel(
  db: Db,
  { signerAddress, nonce, body, author, minter }: ProposeNonceCancelParameters,
): Promise<ApiControlChangeAccepted> {
  const pending = await readPendingNonceOrThrow(db, { signerAddress, nonce })
  if (pending.operation !== 'mint' || pending.use !== 'mint')
    throw new ConflictError(
      `Nonce ${nonce} holds ${pending.operation === null ? 'a zero-value gap fill' : `a ${pending.operation}`}: only a mint's nonce is cancelled here (speed it up instead).`,
    )
  if (pending.operationStatus !== 'pending' && pending.operationStatus !== 'submitted')
    throw new ConflictError(`The mint at nonce ${nonce} is ${pending.operationStatus}: nothing to cancel.`)
  return proposeOnChainChange(db, {
    body: { kind: 'nonce.cancel', params: { signerAddress: pending.signerAddress, nonce }, ...body },
    author,
    minter,
  })
}
