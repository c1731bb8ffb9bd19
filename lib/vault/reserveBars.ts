import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintOrderBars } from '@/db/schema/mint'
import { BarAlreadyUsedError, type UsedBar } from '@/lib/errors/mint'
import { ValidationError } from '@/lib/errors/request'
import { type BarMismatch, BarMismatchError, BarNotInVaultError, type RequestedBar } from '@/lib/errors/vault'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { lockVault } from './lockVault'
import { normalizeBarKey } from './normalizeBarKey'
import { uuidArraySql } from './uuidArraySql'

/** A bar as a mint request names it: serial + refiner; the rest, when given, must equal the bar list. */
export type ReserveBarsBar = {
  serial: string
  refiner: string
  year?: number
  grossOz?: string
  fineness?: string
  fineOz?: string
}

export type ReserveBarsParameters = {
  /** the order that reserves them (already inserted in this transaction) */
  orderId: string
  vault: string
  /** in request order; their positions become the order's bar positions */
  bars: readonly ReserveBarsBar[]
  /** the request's amount (fine oz, up to 3 decimals): must equal the sum of the bars' fine weights in the bar list */
  amount: string
}

export type ReserveBarsReturnType = {
  /** the bars' ids, in request order */
  barIds: string[]
  /** the sum of their fine weights, as the bar list says (fine oz, 3 decimals) */
  fineOz: string
}

type InventoryRow = {
  id: string
  serial_key: string
  refiner_key: string
  vault: string
  year: number
  gross_oz: string
  fineness: string
  fine_oz: string
  status: string
  on_latest: boolean
}

/**
 * The intake's half of invariant 4, in the caller's transaction (the order's): the
 * request's bars must be free bars of the vault's latest bar list, and the request must
 * agree with that list; then they become `reserved` by the order and are written as the
 * order's bars (mint_order_bars, in request order). Checks, each naming every bar at once:
 * - a bar that is not on the vault's latest list (unknown, withdrawn, missing, another
 *   vault's): BarNotInVaultError (422);
 * - a given year, grossOz, fineness or fineOz that differs from the list: BarMismatchError (422);
 * - an amount other than the sum of the list's fine weights: ValidationError on `amount` (422);
 * - a bar reserved by or backing another order: BarAlreadyUsedError (409).
 * Concurrency: the vault's lock is held shared (no import runs meanwhile); the bars' rows
 * are locked in id order (two requests sharing bars cannot deadlock), then
 * UPDATE ... WHERE status = 'available' decides: of two requests for one bar exactly one
 * wins, the other gets the 409 after the winner commits. Any error rolls the caller's
 * transaction back, so nothing is written.
 */
export async function reserveBars(tx: Tx, p: ReserveBarsParameters): Promise<ReserveBarsReturnType> {
  const keys = p.bars.map((bar, index) => {
    const serial = normalizeBarKey(bar.serial)
    const refiner = normalizeBarKey(bar.refiner)
    if (!serial.ok) throw new ValidationError([{ path: `vaultProof.bars.${index}.serial`, message: serial.message }])
    if (!refiner.ok) throw new ValidationError([{ path: `vaultProof.bars.${index}.refiner`, message: refiner.message }])
    return { sk: serial.key, rk: refiner.key }
  })

  await lockVault(tx, { vault: p.vault, mode: 'shared' })
  const rows = await tx.execute<InventoryRow>(sql`
    with latest as (
      select id from bar_lists where vault = ${p.vault} order by as_of desc, imported_at desc limit 1
    )
    select b.id::text as id, b.serial_key, b.refiner_key, b.vault, b.year, b.gross_oz::text as gross_oz,
           b.fineness::text as fineness, b.fine_oz::text as fine_oz, b.status::text as status,
           (b.last_list_id is not null and b.last_list_id = (select id from latest)) as on_latest
    from vault_bars b
    join json_to_recordset(${JSON.stringify(keys)}::json) as k(sk text, rk text)
      on b.serial_key = k.sk and b.refiner_key = k.rk`)
  const byKey = new Map(rows.map((r) => [`${r.serial_key}\u0000${r.refiner_key}`, r]))

  const notInVault: RequestedBar[] = []
  const mismatches: BarMismatch[] = []
  const found: InventoryRow[] = []
  p.bars.forEach((bar, index) => {
    const key = keys[index]
    const row = key ? byKey.get(`${key.sk}\u0000${key.rk}`) : undefined
    const named = { serial: bar.serial, refiner: bar.refiner, index }
    if (!row || row.vault !== p.vault || !row.on_latest || row.status === 'withdrawn' || row.status === 'missing') {
      notInVault.push(named)
      return
    }
    found.push(row)
    mismatches.push(...compareBar(bar, row, named))
  })
  if (notInVault.length > 0) throw new BarNotInVaultError({ vault: p.vault, bars: notInVault })
  if (mismatches.length > 0) throw new BarMismatchError({ mismatches })

  const total = found.reduce((sum, row) => sum + parseDecimal(row.fine_oz, { decimals: 3 }), 0n)
  const fineOz = formatDecimal(total, { decimals: 3, minFraction: 3 })
  if (parseDecimal(p.amount, { decimals: 3 }) !== total) {
    throw new ValidationError(
      [{ path: 'amount', message: `must equal the sum of the bars' fine weights in the bar list of ${p.vault}: ${fineOz}` }],
      'The mint request is invalid.',
    )
  }

  // row locks in id order, then the statuses as they are now (committed by others meanwhile)
  const ids = found.map((row) => row.id)
  const locked = await tx.execute<{ id: string; status: string }>(sql`
    select id::text as id, status::text as status from vault_bars
    where id = any(${uuidArraySql(ids)}) order by id for update`)
  const free = new Set(locked.filter((r) => r.status === 'available').map((r) => r.id))
  const used: UsedBar[] = []
  found.forEach((row, index) => {
    const bar = p.bars[index]
    if (bar && !free.has(row.id)) used.push({ serial: bar.serial, refiner: bar.refiner, index })
  })
  if (used.length > 0) throw new BarAlreadyUsedError({ bars: used })

  const reserved = await tx.execute<{ id: string }>(sql`
    update vault_bars set status = 'reserved', order_id = ${p.orderId}::uuid, updated_at = now()
    where id = any(${uuidArraySql(ids)}) and status = 'available'
    returning id::text as id`)
  if (reserved.length !== ids.length) {
    // cannot happen while we hold the rows' locks; never reserve half an order's bars
    const got = new Set(reserved.map((r) => r.id))
    throw new BarAlreadyUsedError({
      bars: found.flatMap((row, index) => (got.has(row.id) ? [] : [{ serial: p.bars[index]?.serial ?? '', refiner: p.bars[index]?.refiner ?? '', index }])),
    })
  }
  await tx.insert(mintOrderBars).values(ids.map((barId, position) => ({ orderId: p.orderId, barId, position })))
  return { barIds: ids, fineOz }
}

/** The fields a request gave that differ from the bar list's row. */
function compareBar(bar: ReserveBarsBar, row: InventoryRow, named: RequestedBar): BarMismatch[] {
  const out: BarMismatch[] = []
  if (bar.year !== undefined && bar.year !== row.year) {
    out.push({ ...named, field: 'year', inventory: String(row.year), given: String(bar.year) })
  }
  const decimals = [
    ['grossOz', bar.grossOz, row.gross_oz, 3],
    ['fineness', bar.fineness, row.fineness, 2],
    ['fineOz', bar.fineOz, row.fine_oz, 3],
  ] as const
  for (const [field, given, listed, places] of decimals) {
    if (given === undefined) continue
    const inventory = parseDecimal(listed, { decimals: places })
    if (sameDecimal(given, inventory, places)) continue
    out.push({ ...named, field, inventory: formatDecimal(inventory, { decimals: places, minFraction: places === 2 ? 1 : 3 }), given })
  }
  return out
}

function sameDecimal(given: string, inventory: bigint, decimals: number): boolean {
  try {
    return parseDecimal(given, { decimals }) === inventory
  } catch {
    return false
  }
}
