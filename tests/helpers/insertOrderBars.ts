import { randomBytes } from 'node:crypto'
import type { DbOrTx } from '@/db/client'
import { mintOrderBars } from '@/db/schema/mint'
import { type BarStatus, vaultBars } from '@/db/schema/vault'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'

// TEST ONLY: bars for an order made by a raw factory (no intake, no bar list), consistent
// with the inventory model: the order's vault, normalized keys, and the status and holder
// an order in that status gives its bars. They were never on a bar list (last_list_id
// null), like the bars registered before bar lists existed.

export type InsertOrderBarsParameters = {
  orderId: string
  vault: string
  /** the order's status: confirmed -> backing; failed, cancelled, rejected -> withdrawn and free; else reserved */
  orderStatus: string
  bars: { serial?: string; refiner?: string; year?: number; grossOz: string; fineness: string; fineOz: string }[]
}

export async function insertOrderBars(db: DbOrTx, p: InsertOrderBarsParameters): Promise<string[]> {
  const status: BarStatus =
    p.orderStatus === 'confirmed'
      ? 'backing'
      : ['failed', 'cancelled', 'rejected'].includes(p.orderStatus)
        ? 'withdrawn'
        : 'reserved'
  const ids: string[] = []
  for (const [position, bar] of p.bars.entries()) {
    const serial = bar.serial ?? `T${randomBytes(5).toString('hex').toUpperCase()}`
    const refiner = bar.refiner ?? 'Valcambi SA'
    const [row] = await db
      .insert(vaultBars)
      .values({
        vault: p.vault,
        serial,
        refiner,
        serialKey: keyOf(serial),
        refinerKey: keyOf(refiner),
        year: bar.year ?? 2025,
        grossOz: bar.grossOz,
        fineness: bar.fineness,
        fineOz: bar.fineOz,
        status,
        orderId: status === 'withdrawn' ? null : p.orderId,
      })
      .returning({ id: vaultBars.id })
    if (!row) throw new Error('no bar')
    await db.insert(mintOrderBars).values({ barId: row.id, orderId: p.orderId, position })
    ids.push(row.id)
  }
  return ids
}

function keyOf(value: string): string {
  const key = normalizeBarKey(value)
  if (!key.ok) throw new Error(`test bar text cannot be a key: ${key.message}`)
  return key.key
}
