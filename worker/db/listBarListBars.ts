import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ListBarListBarsParameters = { vault: string; listId: string; pageSize?: number }

export type BarListBar = { serial: string; refiner: string; fineMilliOz: bigint }

/**
 * The bars the list put on the inventory (vault_bars.last_list_id), as the hashes see them,
 * in pages by key (the vault's key index), so a list of 100,000 bars is never held whole.
 */
export async function* listBarListBars(
  db: DbOrTx,
  { vault, listId, pageSize = 5000 }: ListBarListBarsParameters,
): AsyncGenerator<BarListBar[]> {
  let after: { serialKey: string; refinerKey: string } | null = null
  for (;;) {
    const from: ReturnType<typeof sql> = after
      ? sql`and (serial_key, refiner_key) > (${after.serialKey}, ${after.refinerKey})`
      : sql``
    const rows = await db.execute<{
      serial: string
      refiner: string
      serial_key: string
      refiner_key: string
      fine_milli_oz: string
    }>(sql`
      select serial, refiner, serial_key, refiner_key, (fine_oz * 1000)::bigint::text as fine_milli_oz
      from vault_bars
      where vault = ${vault} and last_list_id = ${listId}::uuid ${from}
      order by serial_key, refiner_key
      limit ${pageSize}`)
    if (rows.length === 0) return
    yield rows.map((r) => ({ serial: r.serial, refiner: r.refiner, fineMilliOz: BigInt(r.fine_milli_oz) }))
    if (rows.length < pageSize) return
    const last = rows[rows.length - 1]
    after = { serialKey: last.serial_key, refinerKey: last.refiner_key }
  }
}
