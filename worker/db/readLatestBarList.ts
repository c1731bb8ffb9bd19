import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ReadLatestBarListParameters = { vault: string }

/** A vault's latest bar list as imported, with the custodian's signature (null: a list from before signatures). */
export type StoredBarList = {
  id: string
  vault: string
  asOf: Date
  barsRoot: string | null
  totalFineWei: bigint | null
  custodianAddress: string | null
  custodianSignature: string | null
}

/** The vault's latest bar list (by asOf, then import time), or undefined when it has none. */
export async function readLatestBarList(
  db: DbOrTx,
  { vault }: ReadLatestBarListParameters,
): Promise<StoredBarList | undefined> {
  const [row] = await db.execute<{
    id: string
    vault: string
    as_of: Date | string
    bars_root: string | null
    total_fine_wei: string | null
    custodian_address: string | null
    custodian_signature: string | null
  }>(sql`
    select id::text as id, vault, as_of, bars_root, total_fine_wei::text as total_fine_wei, custodian_address,
      custodian_signature
    from bar_lists where vault = ${vault} order by as_of desc, imported_at desc limit 1`)
  if (!row) return undefined
  return {
    id: row.id,
    vault: row.vault,
    asOf: new Date(row.as_of),
    barsRoot: row.bars_root,
    totalFineWei: row.total_fine_wei === null ? null : BigInt(row.total_fine_wei),
    custodianAddress: row.custodian_address,
    custodianSignature: row.custodian_signature,
  }
}
