import { and, asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema'
import { type ChainTx, toChainTx } from './toChainTx'

export type ListNonceTxsParameters = { signerAddress: string; nonce: bigint }

/** Every transaction mintdesk signed at one nonce of one signer (original, replacements, gap fill), oldest first. */
export async function listNonceTxs(db: DbOrTx, { signerAddress, nonce }: ListNonceTxsParameters): Promise<ChainTx[]> {
  const rows = await db
    .select()
    .from(chainTxs)
    .where(and(eq(chainTxs.signerAddress, signerAddress), eq(chainTxs.nonce, nonce)))
    .orderBy(asc(chainTxs.createdAt), asc(chainTxs.hash))
  return rows.map(toChainTx)
}
