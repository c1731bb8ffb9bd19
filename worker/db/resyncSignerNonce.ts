import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type ResyncSignerNonceParameters = {
  signerAddress: string
  /** the chain's transaction count of the signer (`pending`), read before this transaction */
  chainCount: bigint
}

/** the nonces taken over, [from, to), or null when next_nonce was not behind the chain */
export type ResyncSignerNonceReturnType = { from: bigint; to: bigint } | null

/**
 * In the caller's transaction: takes the signer's row lock (FOR NO KEY UPDATE, the lock every nonce taker holds,
 * worker/db/reserveNonces.ts) and, when next_nonce is behind the chain's count, records every nonce in between as
 * used (`resync`, `mined`: a transaction the database does not know used it) and moves next_nonce to the chain's
 * count, so no later batch signs a spent nonce. Only ever moves next_nonce forward and only adds rows: a nonce
 * already reserved, signed or released keeps its row (a reserved nonce is never lost).
 */
export async function resyncSignerNonce(
  tx: Tx,
  { signerAddress, chainCount }: ResyncSignerNonceParameters,
): Promise<ResyncSignerNonceReturnType> {
  const [row] = await tx.execute<{ next_nonce: string }>(
    sql`select next_nonce::text as next_nonce from signers where address = ${signerAddress} for no key update`,
  )
  if (!row) return null
  const from = BigInt(row.next_nonce)
  if (from >= chainCount) return null
  await tx.execute(sql`
    insert into signer_nonces (signer_address, nonce, use, state)
    select ${signerAddress}, n, 'resync', 'mined'
    from generate_series(${from}::bigint, ${chainCount - 1n}::bigint) as n
    on conflict do nothing`)
  await tx.execute(
    sql`update signers set next_nonce = ${chainCount}::bigint, updated_at = now() where address = ${signerAddress}`,
  )
  return { from, to: chainCount }
}
