import { and, eq, sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { chainTxs, signerNonces } from '@/db/schema'

export type MarkTxMinedParameters = {
  signerAddress: string
  nonce: bigint
  /** the transaction at this nonce that a receipt shows mined; null: none is (a reorg took it out) */
  hash: string | null
  blockNumber: bigint | null
}

/**
 * Writes what the chain says about one nonce: which of our transactions at it is mined
 * and in which block (the others are cleared), and the nonce's state (`mined`, or back
 * to `signed` when a reorg took the block away).
 */
export async function markTxMined(
  tx: Tx,
  { signerAddress, nonce, hash, blockNumber }: MarkTxMinedParameters,
): Promise<void> {
  await tx
    .update(chainTxs)
    .set({
      minedBlock:
        hash === null ? null : sql`case when ${chainTxs.hash} = ${hash} then ${blockNumber}::bigint else null end`,
    })
    .where(and(eq(chainTxs.signerAddress, signerAddress), eq(chainTxs.nonce, nonce)))
  await tx
    .update(signerNonces)
    .set({
      state:
        hash === null
          ? sql`case when ${signerNonces.state} = 'mined' then 'signed'::nonce_state else ${signerNonces.state} end`
          : 'mined',
      updatedAt: new Date(),
    })
    .where(and(eq(signerNonces.signerAddress, signerAddress), eq(signerNonces.nonce, nonce)))
}
