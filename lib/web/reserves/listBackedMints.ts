import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { ozToWei } from '@/lib/money/ozToWei'
import { formatOz } from '@/lib/reserves/formatOz'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import type { ApiBackedMint, ApiLookupBar, ApiReserveLookup } from './apiTypes'
import type { ReserveLookupQuery } from './schemas'

/** the most mints one lookup lists (an address may have thousands): the newest */
export const LOOKUP_MAX_MINTS = 100
/** the most bars one serial names (the same serial from several refiners) */
export const LOOKUP_MAX_BARS = 20

export type ListBackedMintsParameters = ReserveLookupQuery & { limit?: number }

export type ListBackedMintsReturnType = ApiReserveLookup

/**
 * GET /api/reserves/lookup, as PAXG's allocation lookup: the confirmed mints to an
 * address (or in one transaction, or backed by a bar of one serial) and the bars backing each
 * (serial, refiner, vault, fine oz, and whether the vault's latest list still has it). A serial's
 * lookup also gives the bars of that serial with their status, so a free bar says so. Public data
 * only: no requester, no vault receipt. Every search uses an index (lower(to_address), the
 * chain_txs primary key, vault_bars_key and mint_order_bars_bar_idx), so a public caller cannot
 * make it scan the orders.
 */
export async function listBackedMints(db: DbOrTx, p: ListBackedMintsParameters): Promise<ListBackedMintsReturnType> {
  const limit = Math.min(p.limit ?? LOOKUP_MAX_MINTS, LOOKUP_MAX_MINTS)
  let where: SQL
  let query: ApiReserveLookup['query']
  let bars: Promise<ApiLookupBar[]> | undefined
  if ('tx' in p) {
    const tx = p.tx.toLowerCase()
    query = { tx }
    where = sql`o.id = (select c.order_id from chain_txs c where c.hash = ${tx}) and o.tx_hash = ${tx}`
  } else if ('serial' in p) {
    const key = normalizeBarKey(p.serial)
    const serialKey = key.ok ? key.key : p.serial
    query = { serial: p.serial }
    where = sql`o.id in (select ob.order_id from mint_order_bars ob join vault_bars b on b.id = ob.bar_id
      where b.serial_key = ${serialKey})`
    bars = listBarsOfSerial(db, { serialKey })
  } else {
    query = { address: p.address }
    where = sql`lower(o.to_address) = ${p.address.toLowerCase()}`
  }
  const rows = await db.execute<{
    id: string
    to_address: string
    amount_wei: string
    tx_hash: string
    block_number: string | null
    confirmed_at: string | null
    bars: {
      serial: string
      refiner: string
      vault: string
      fine_oz: string
      status: string
      redemption_id: string | null
      burn_tx: string | null
    }[]
  }>(sql`
    with mints as (
      select o.id, o.to_address, o.amount_wei, o.tx_hash, o.block_number, o.confirmed_at
      from mint_orders o
      where ${where} and o.status = 'confirmed'
      order by o.confirmed_at desc nulls last, o.id desc
      limit ${limit + 1}
    )
    select m.id::text as id, m.to_address, m.amount_wei::text as amount_wei, m.tx_hash,
      m.block_number::text as block_number,
      to_char(m.confirmed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as confirmed_at,
      coalesce((
        select json_agg(json_build_object('serial', b.serial, 'refiner', b.refiner, 'vault', b.vault,
          'fine_oz', b.fine_oz::text, 'status', b.status, 'redemption_id', r.id, 'burn_tx', r.tx_hash)
          order by ob.position)
        from mint_order_bars ob join vault_bars b on b.id = ob.bar_id
          left join redemptions r on r.id = b.redemption_id and r.status = 'burned'
        where ob.order_id = m.id
      ), '[]'::json) as bars
    from mints m
    order by m.confirmed_at desc nulls last, m.id desc`)
  const mints: ApiBackedMint[] = rows.slice(0, limit).map((r) => ({
    orderId: r.id,
    to: r.to_address,
    amount: formatOz(BigInt(r.amount_wei)),
    txHash: r.tx_hash,
    blockNumber: r.block_number,
    confirmedAt: r.confirmed_at,
    bars: r.bars.map((b) => ({
      serial: b.serial,
      refiner: b.refiner,
      vault: b.vault,
      fineOz: formatOz(ozToWei(b.fine_oz)),
      status: b.status,
      redeemed: b.redemption_id && b.burn_tx ? { redemptionId: b.redemption_id, txHash: b.burn_tx } : null,
    })),
  }))
  return { query, mints, truncated: rows.length > limit, ...(bars ? { bars: await bars } : {}) }
}

/** The bars of one serial (every refiner's), with their status: backing, free (available), redeemed... */
async function listBarsOfSerial(db: DbOrTx, p: { serialKey: string }): Promise<ApiLookupBar[]> {
  const rows = await db.execute<{
    serial: string
    refiner: string
    vault: string
    fine_oz: string
    status: string
  }>(sql`
    select b.serial, b.refiner, b.vault, b.fine_oz::text as fine_oz, b.status::text as status
    from vault_bars b where b.serial_key = ${p.serialKey}
    order by b.refiner_key limit ${LOOKUP_MAX_BARS}`)
  return rows.map((b) => ({
    serial: b.serial,
    refiner: b.refiner,
    vault: b.vault,
    fineOz: formatOz(ozToWei(b.fine_oz)),
    status: b.status,
  }))
}
