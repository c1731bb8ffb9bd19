import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type InsertMissingNoncesParameters = { signerAddress: string; from: bigint; to: bigint }

/**
 * Defensive: a nonce in [from, to) that was handed out (next_nonce passed it) but has
 * no signer_nonces row cannot be told apart from a lost one, so it gets a `released`
 * gap_fill row and the nonce health check fills it. Returns the nonces inserted.
 */
export async function insertMissingNonces(
  db: DbOrTx,
  { signerAddress, from, to }: InsertMissingNoncesParameters,
): Promise<bigint[]> {
  if (to <= from) return []
  const rows = await db.execute<{ nonce: bigint }>(sql`
    insert into signer_nonces (signer_address, nonce, use, state)
    select ${signerAddress}, n, 'gap_fill', 'released'
    from generate_series(${from}::bigint, ${to - 1n}::bigint) as n
    where not exists (select 1 from signer_nonces sn where sn.signer_address = ${signerAddress} and sn.nonce = n)
    on conflict do nothing
    returning nonce`)
  return rows.map((r) => BigInt(r.nonce))
}
