import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ListBarListBarsParameters = { listId: string }

/** The bars the list put on the inventory (vault_bars.last_list_id), as the hashes see them. */
export async function listBarListBars(
  db: DbOrTx,
  { listId }: ListBarListBarsParameters,
): Promise<{ serial: string; refiner: string; fineMilliOz: bigint }[]> {
  const rows = await db.execute<{ serial: string; refiner: string; fine_milli_oz: string }>(sql`
    select serial, refiner, (fine_oz * 1000)::bigint::text as fine_milli_oz from vault_bars
    where last_list_id = ${listId}::uuid`)
  return rows.map((r) => ({ serial: r.serial, refiner: r.refiner, fineMilliOz: BigInt(r.fine_milli_oz) }))
}
