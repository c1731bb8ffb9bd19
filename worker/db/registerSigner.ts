import type { Address } from 'viem'
import type { DbOrTx } from '@/db/client'
import { signers } from '@/db/schema'
import { SignerConflictError } from '@/worker/errors/signers'
import { readSigner, type SignerRow } from './readSigner'

export type RegisterSignerParameters = {
  address: Address
  kmsKeyId: string
  chainId: number
  /** the chain's pending nonce: read only when the signer is new */
  initialNonce: () => Promise<bigint>
}

/**
 * Makes sure a KMS key this worker holds has its signers row. A new signer starts at
 * the chain's pending nonce; an existing row is never touched (Postgres, not the chain,
 * is the source of truth for nonces once a signer is known).
 */
export async function registerSigner(db: DbOrTx, p: RegisterSignerParameters): Promise<SignerRow> {
  let row = await readSigner(db, { address: p.address })
  if (!row) {
    const nextNonce = await p.initialNonce()
    await db
      .insert(signers)
      .values({ address: p.address, kmsKeyId: p.kmsKeyId, chainId: p.chainId, nextNonce })
      .onConflictDoNothing()
    row = await readSigner(db, { address: p.address })
    if (!row) throw new SignerConflictError(`could not register signer ${p.address}`)
  }
  if (row.kmsKeyId !== p.kmsKeyId)
    throw new SignerConflictError(`signer ${p.address} is registered with KMS key ${row.kmsKeyId}, not ${p.kmsKeyId}`)
  if (row.chainId !== p.chainId)
    throw new SignerConflictError(`signer ${p.address} is registered on chain ${row.chainId}, not ${p.chainId}`)
  return row
}
