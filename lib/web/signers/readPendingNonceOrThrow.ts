import type { DbOrTx } from '@/db/client'
import { NotFoundError } from '@/lib/web/errors/resource'
import { listPendingNonces, type PendingNonce } from './listPendingNonces'

export type ReadPendingNonceParameters = { signerAddress: string; nonce: number }

/**
 * One signer's nonce still pending (reserved or signed, not mined, not released), with what holds it and the newest
 * transaction signed at it (lib/web/signers/listPendingNonces.ts). Any other nonce, or no such signer: 404.
 */
export async function readPendingNonceOrThrow(db: DbOrTx, p: ReadPendingNonceParameters): Promise<PendingNonce> {
  const [found] = await listPendingNonces(db, { signerAddress: p.signerAddress, nonce: p.nonce })
  if (!found) throw new NotFoundError({ what: 'Pending nonce' })
  return found
}
