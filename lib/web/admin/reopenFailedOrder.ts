import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { BarAlreadyUsedError } from '@/lib/errors/mint'
import { markBarsReserved } from '@/lib/vault/markBarsReserved'

/**
 * A failed order whose job runs again is back in flight: `submitted` when a signed
 * transaction is stored for it (the worker re-sends those bytes), else `pending`; its
 * failure reason cleared; its bars held by it again (lib/vault/markBarsReserved), or a
 * BarAlreadyUsedError (409) when another order took one meanwhile. A failed control change that
 * lives on chain (the id is its) is reopened the same way: its control_send runs again; so is a failed compliance
 * operation (its compliance_send runs again; GoldMinter uses its id once) and a failed redemption (its
 * redemption_send runs again; the token burns its id once). Every other status is left as is.
 * Returns the status after.
 */
export async function reopenFailedOrder(tx: Tx, orderId: string): Promise<string | null> {
  const rows = await tx.execute<{ status: string }>(sql`
    update mint_orders o set
      status = case when exists (select 1 from chain_txs c where c.order_id = o.id) then 'submitted' else 'pending' end::mint_status,
      failure_reason = null,
      updated_at = now()
    where o.id = ${orderId}::uuid and o.status = 'failed'
    returning o.status::text as status`)
  if (rows[0]) {
    // in flight again: it holds its bars again, unless another order took one meanwhile
    const { lost } = await markBarsReserved(tx, { orderId })
    if (lost.length > 0) throw new BarAlreadyUsedError({ bars: lost })
    return rows[0].status
  }
  const change = await tx.execute<{ status: string }>(sql`
    update control_changes cc set
      status = case when exists (select 1 from chain_txs c where c.control_change_id = cc.id) then 'submitted' else 'pending' end::control_change_status,
      failure_reason = null,
      updated_at = now()
    where cc.id = ${orderId}::uuid and cc.status = 'failed' and cc.deadline is not null
    returning cc.status::text as status`)
  if (change[0]) return change[0].status
  const compliance = await tx.execute<{ status: string }>(sql`
    update compliance_operations co set
      status = case when exists (select 1 from chain_txs c where c.compliance_operation_id = co.id) then 'submitted' else 'pending' end::compliance_status,
      failure_reason = null,
      updated_at = now()
    where co.id = ${orderId}::uuid and co.status = 'failed'
    returning co.status::text as status`)
  if (compliance[0]) return compliance[0].status
  // a failed redemption holds its deposit and its bars still: it is sent again as it was signed
  const redemption = await tx.execute<{ status: string }>(sql`
    update redemptions r set
      status = case when exists (select 1 from chain_txs c where c.redemption_id = r.id) then 'submitted' else 'pending' end::redemption_status,
      failure_reason = null,
      updated_at = now()
    where r.id = ${orderId}::uuid and r.status = 'failed'
    returning r.status::text as status`)
  if (redemption[0]) return redemption[0].status
  const current = await tx.execute<{ status: string }>(
    sql`select status::text as status from mint_orders where id = ${orderId}::uuid`,
  )
  return current[0]?.status ?? null
}
