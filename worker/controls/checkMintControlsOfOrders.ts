import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { mintControlsRefusal } from '@/lib/controls/mintControlsRefusal'
import type { OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'

export type CheckMintControlsOfOrdersParameters = {
  /** orders already written, each left out of its own rolling 24 h total */
  orders: readonly { orderId: string; to: string; amountWei: bigint }[]
}

/** by order id: the order's refusal, or null when it passes */
export type CheckMintControlsOfOrdersReturnType = Map<string, RecipientNotAllowedError | OverLimitError | null>

/**
 * checkMintControls for every order of a send batch in ONE statement (the worker's check
 * before signing): public.check_mint_controls once per order, each order
 * left out of its own rolling total, without the daily cap's lock (the worker adds
 * nothing to the total: its orders were counted at intake, as checkMintControls with
 * `lock: false`). A refusal comes back in the map, not thrown: it is that order's alone.
 */
export async function checkMintControlsOfOrders(
  db: DbOrTx,
  { orders }: CheckMintControlsOfOrdersParameters,
): Promise<CheckMintControlsOfOrdersReturnType> {
  const result: CheckMintControlsOfOrdersReturnType = new Map()
  if (orders.length === 0) return result
  const rows = await db.execute<{ order_id: string; refusal: string | null; detail: unknown }>(sql`
    select v.order_id::text as order_id, c.r_refusal as refusal, c.r_detail as detail
    from unnest(${uuidArraySql(orders.map((o) => o.orderId))}, ${`{${orders.map((o) => JSON.stringify(o.to)).join(',')}}`}::text[],
      ${`{${orders.map((o) => o.amountWei.toString()).join(',')}}`}::numeric[]) as v(order_id, to_address, amount_wei)
    cross join lateral public.check_mint_controls(
      p_to => v.to_address, p_amount_wei => v.amount_wei, p_exclude_order_id => v.order_id, p_lock => false) c`)
  const toOf = new Map(orders.map((o) => [o.orderId, o.to]))
  for (const row of rows) {
    const refused = mintControlsRefusal({ refusal: row.refusal, detail: row.detail, to: toOf.get(row.order_id) ?? '' })
    if (row.refusal !== null && !refused) throw new Error(`check_mint_controls: unknown refusal ${row.refusal}`)
    result.set(row.order_id, refused)
  }
  for (const o of orders)
    if (!result.has(o.orderId)) throw new Error(`check_mint_controls returned no row for order ${o.orderId}`)
  return result
}
