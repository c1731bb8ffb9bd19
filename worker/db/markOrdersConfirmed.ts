import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { mintStatus } from '@/db/schema'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import { markBarsBacking } from '@/worker/vault/markBarsBacking'

export type ConfirmedOrder = { orderId: string; txHash: string; blockNumber: bigint }

export type MarkOrdersConfirmedParameters = { orders: readonly ConfirmedOrder[] }

/**
 * The orders' mints have their confirmations, in the caller's transaction (the caller
 * holds the orders' locks): the mint.confirmed notification of each order not confirmed
 * yet (the outbox), the mined hash and block recorded, and their bars now back
 * their tokens (docs/architecture.md invariant 4). Three statements for a whole block of
 * orders (a confirmer pass settles them together), however many there are.
 */
export async function markOrdersConfirmed(tx: Tx, { orders }: MarkOrdersConfirmedParameters): Promise<void> {
  if (orders.length === 0) return
  for (const o of orders) if (!TX_HASH.test(o.txHash)) throw new TypeError(`not a transaction hash: ${o.txHash}`)
  const ids = uuidArraySql(orders.map((o) => o.orderId))
  const hashes = `{${orders.map((o) => o.txHash).join(',')}}`
  const blocks = `{${orders.map((o) => o.blockNumber.toString()).join(',')}}`
  // the events first: record_mint_event writes one only for an order whose status is still one of NOT_CONFIRMED
  await tx.execute(sql`
    select public.record_mint_event(p_type => 'mint.confirmed', p_order_id => v.id, p_status => 'confirmed',
      p_from => ${`{${NOT_CONFIRMED.join(',')}}`}::text[], p_data => jsonb_build_object('txHash', v.hash))
    from unnest(${ids}, ${hashes}::text[]) as v(id, hash)`)
  await tx.execute(sql`
    update mint_orders m set status = 'confirmed', tx_hash = v.hash, block_number = v.block, confirmed_at = now(),
      failure_reason = null, updated_at = now()
    from unnest(${ids}, ${hashes}::text[], ${blocks}::bigint[]) as v(id, hash, block)
    where m.id = v.id`)
  await markBarsBacking(tx, { orderIds: orders.map((o) => o.orderId) })
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/
const NOT_CONFIRMED = mintStatus.enumValues.filter((status) => status !== 'confirmed')
