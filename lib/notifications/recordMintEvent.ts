import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { MintStatus, NotificationEventType } from '@/db/schema'

export type RecordMintEventParameters = {
  type: NotificationEventType
  orderId: string
  /** the order's status the event announces; null: as the order is now */
  status: MintStatus | null
  /** the event is written only while the order is in one of these (locked FOR UPDATE); null: whatever it is */
  from: readonly MintStatus[] | null
  /** more of the delivered `data` (txHash, reason, jobId...) */
  data?: Record<string, string | null>
}

/**
 * THE outbox write of notifications: one statement in the caller's transaction
 * (public.record_mint_event) writes the event, so it exists iff the order's change commits;
 * at that commit a deferred trigger (db/functions/wake_notify_dispatch.sql) wakes the ONE
 * notify_dispatch job, one waiting job for a burst (docs/decisions/033-notifications.md).
 * Called BEFORE the order's update, so `from` sees the status it changes from: an order already in the target status
 * gets no second event. Returns the event id, or null when none was written.
 */
export async function recordMintEvent(tx: DbOrTx, p: RecordMintEventParameters): Promise<string | null> {
  const from = p.from === null ? null : `{${p.from.join(',')}}`
  const rows = await tx.execute<{ id: string | null }>(
    sql`select public.record_mint_event(p_type => ${p.type}, p_order_id => ${p.orderId}::uuid, p_status => ${p.status}, p_from => ${from}::text[], p_data => ${p.data ? JSON.stringify(p.data) : null}::jsonb)::text as id`,
  )
  return rows[0]?.id ?? null
}
