import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ComplianceStatus } from '@/db/schema'

export type RecordComplianceEventParameters = {
  type: 'compliance.awaiting_approval' | 'compliance.applied' | 'compliance.failed'
  operationId: string
  /** the operation's status the event announces */
  status: ComplianceStatus
  /** the event is written only while the operation is in one of these (locked FOR UPDATE) */
  from: readonly ComplianceStatus[]
  /** more of the delivered `data` (reason...) */
  data?: Record<string, string | null>
}

/**
 * The outbox write of a compliance operation's notification event (docs/decisions/056-compliance-operations.md):
 * one statement in the caller's transaction, so the event exists iff the operation's change commits (the deferred
 * trigger wakes notify_dispatch at commit, as for mints). Called BEFORE the operation's update, so `from` sees the
 * status it changes from: an operation already in the target status gets no second event. `data` carries the
 * operation's id, action, account, status and transaction hash. Returns the event id, or null when none was written.
 */
export async function recordComplianceEvent(tx: DbOrTx, p: RecordComplianceEventParameters): Promise<string | null> {
  const rows = await tx.execute<{ id: string }>(sql`
    with op as (
      select c.id, c.action, c.account, c.tx_hash from compliance_operations c
      where c.id = ${p.operationId}::uuid and c.status::text = any(${`{${p.from.join(',')}}`}::text[])
      for update
    )
    insert into notification_events (type, compliance_operation_id, payload)
    select ${p.type}, op.id,
      jsonb_build_object('operationId', op.id, 'action', op.action::text, 'account', op.account,
        'status', ${p.status}::text, 'txHash', op.tx_hash) || ${JSON.stringify(p.data ?? {})}::jsonb
    from op
    returning id::text as id`)
  return rows[0]?.id ?? null
}
