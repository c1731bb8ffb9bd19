import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { ConflictError } from '@/lib/web/errors/resource'

export type CheckBarsStillReservedParameters = { orderId: string }

/**
 * At approval: every bar of the order (mint_order_bars) is still `reserved` by it. A bar
 * list imported while the order waited may have dropped one (missing), or the row may
 * have been changed: such an order is not approved (409 conflict, naming the bar), it
 * can only be rejected. The worker checks the same again before it signs.
 */
export async function checkBarsStillReserved(tx: Tx, { orderId }: CheckBarsStillReservedParameters): Promise<void> {
  const rows = await tx.execute<{ serial: string; refiner: string; status: string; held_by_order: boolean }>(sql`
    select b.serial, b.refiner, b.status::text as status, b.order_id is not distinct from ${orderId}::uuid as held_by_order
      from mint_order_bars m join vault_bars b on b.id = m.bar_id
     where m.order_id = ${orderId}::uuid
     order by m.position`)
  if (rows.length === 0) throw new ConflictError('This order has no bars: it cannot be approved.')
  const lost = rows.filter((r) => !(r.status === 'reserved' && r.held_by_order))
  if (lost.length > 0) {
    const names = lost
      .map((r) => `${r.serial} (${r.refiner}): ${r.held_by_order ? r.status : 'not held by this order'}`)
      .join(', ')
    throw new ConflictError(
      `The bars of this order are no longer all reserved by it (${names}); it cannot be approved, only rejected.`,
    )
  }
}
