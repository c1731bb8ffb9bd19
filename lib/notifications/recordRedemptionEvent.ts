import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { NotificationEventType, RedemptionStatus } from '@/db/schema'

export type RecordRedemptionEventParameters = {
  type: Extract<NotificationEventType, `redemption.${string}`>
  redemptionId: string
  /** the redemption's status the event announces; null: as it is now */
  status: RedemptionStatus | null
  /** the event is written only while the redemption is in one of these (locked FOR UPDATE); null: whatever it is */
  from: readonly RedemptionStatus[] | null
  /** more of the delivered `data` (txHash, reason...) */
  data?: Record<string, string | null>
}

/**
 * The outbox write of a redemption's notification, in the caller's transaction (as lib/notifications/recordMintEvent
 * for orders): the event exists iff the redemption's change commits, and its commit wakes notify_dispatch. Called
 * BEFORE the redemption's update, so `from` sees the status it changes from. Returns the event id, or null.
 */
export async function recordRedemptionEvent(tx: DbOrTx, p: RecordRedemptionEventParameters): Promise<string | null> {
  const from = p.from === null ? null : `{${p.from.join(',')}}`
  const rows = await tx.execute<{ id: string }>(sql`
    insert into notification_events (type, redemption_id, payload)
    select ${p.type}, r.id, jsonb_build_object(
        'redemptionId', r.id, 'status', coalesce(${p.status}::text, r.status::text), 'holder', r.holder_address,
        'amountWei', r.amount_wei::text, 'reference', r.reference, 'txHash', r.tx_hash,
        'depositTx', r.deposit_tx_hash, 'depositLogIndex', r.deposit_log_index
      ) || coalesce(${p.data ? JSON.stringify(p.data) : null}::jsonb, '{}'::jsonb)
    from (
      select * from redemptions where id = ${p.redemptionId}::uuid
        and (${from}::text[] is null or status::text = any(${from}::text[]))
      for update
    ) r
    returning id::text as id`)
  return rows[0]?.id ?? null
}
