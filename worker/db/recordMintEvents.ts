import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { MintStatus, NotificationEventType } from '@/db/schema'

export type RecordMintEventsParameters = {
  type: NotificationEventType
  /** the orders' status the events announce; null: as each order is now */
  status: MintStatus | null
  /** an event is written only while its order is in one of these (locked FOR UPDATE); null: whatever it is */
  from: readonly MintStatus[] | null
  /** one event per order, in order id order (the order the locks are taken in), with its own `data` */
  events: readonly { orderId: string; data?: Record<string, string | null> }[]
}

/**
 * recordMintEvent for many orders in ONE statement (a send batch's mint.submitted events): the same
 * function (public.record_mint_event) called once per row of a jsonb parameter, in the caller's
 * transaction, so each event exists iff its order's change commits. Called BEFORE the orders' update,
 * as recordMintEvent is. The rows go in order id order: the orders' locks are taken in the order
 * every batch takes them.
 */
export async function recordMintEvents(tx: DbOrTx, p: RecordMintEventsParameters): Promise<void> {
  if (p.events.length === 0) return
  const from = p.from === null ? null : `{${p.from.join(',')}}`
  const rows = [...p.events]
    .sort((a, b) => (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0))
    .map((e) => ({ order_id: e.orderId, data: e.data ?? null }))
  await tx.execute(sql`
    select public.record_mint_event(p_type => ${p.type}, p_order_id => r.order_id, p_status => ${p.status},
      p_from => ${from}::text[], p_data => r.data)
    from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (order_id uuid, data jsonb))
      with ordinality as r(order_id, data, n)
    order by r.n`)
}
