import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import { claimableSql, takeClaimSql } from './claimSql'

export type ClaimEmailsParameters = { ids: readonly string[]; leaseMs: number }

/** a claimed email row with its event: what goes into the message */
export type ClaimedEmail = {
  id: string
  address: string
  eventId: string
  type: string
  orderId: string
  payload: Record<string, unknown>
  /** the recipient's allowlist label as it is now; null when the address is no longer listed */
  recipientLabel: string | null
  /** why the order was rejected, in its approver's words; null unless it was */
  rejectionReason: string | null
}

export type ClaimEmailsReturnType = {
  /** one token for every row claimed here: complete them with it */
  token: string
  /** claimed for leaseMs, in the order of `ids` */
  claimed: ClaimedEmail[]
  /** rows another attempt still holds (a crashed one until its lease ends), with the latest lease */
  held: { count: number; until: Date | null }
  /** sent or dead: nothing to send */
  finished: number
  /** ids with no row */
  missing: number
}

type Row = {
  id: string
  mine: boolean
  status: string
  until: string | null
  address: string
  event_id: string
  type: string
  order_id: string
  payload: unknown
  recipient_label: string | null
  rejection_reason: string | null
}

/**
 * Takes the claim of a set of email rows BEFORE they are sent, in one committed statement,
 * as claimNotification does for one row ("once per recipient"): only `pending`
 * rows whose previous claim is over, all with the same token, for leaseMs. Each claimed row
 * comes back with its event, the recipient's allowlist label and a rejection's reason, so a
 * message (a digest too) is composed from this one read. A worker that dies
 * after sending and before completing leaves its claims; once the lease is over the next
 * attempt claims the same rows and sends them again: a late duplicate at worst.
 */
export async function claimEmails(db: DbOrTx, { ids, leaseMs }: ClaimEmailsParameters): Promise<ClaimEmailsReturnType> {
  const token = randomUUID()
  const wanted = uuidArraySql(ids)
  // the outer select reads the rows as they were before the update (a data-modifying CTE's
  // changes are not visible to its statement): `mine` comes from the update's own result
  const rows = await db.execute<Row>(sql`
    with claimed as (
      update email_deliveries set ${takeClaimSql({ token, leaseMs })}
      where id = any(${wanted}) and ${claimableSql}
      returning id
    )
    select d.id::text as id, (c.id is not null) as mine, d.status, d.claimed_until::text as until, d.address,
      e.id::text as event_id, e.type,
      coalesce(e.order_id, e.redemption_id, e.compliance_operation_id)::text as order_id, e.payload,
      r.label as recipient_label, coalesce(o.rejection_reason, rd.rejection_reason, co.rejection_reason) as rejection_reason
    from email_deliveries d
    join notification_events e on e.id = d.event_id
    left join mint_orders o on o.id = e.order_id
    left join redemptions rd on rd.id = e.redemption_id
    left join compliance_operations co on co.id = e.compliance_operation_id
    left join allowed_recipients r
      on r.address = lower(coalesce(e.payload->>'to', e.payload->>'holder', e.payload->>'account'))
    left join claimed c on c.id = d.id
    where d.id = any(${wanted})`)
  const byId = new Map(rows.map((r) => [r.id, r]))
  const claimed: ClaimedEmail[] = []
  let held = 0
  let heldUntil: Date | null = null
  let finished = 0
  let missing = 0
  for (const id of ids) {
    const row = byId.get(id)
    if (!row) missing++
    else if (row.mine) {
      const payload =
        typeof row.payload === 'object' && row.payload !== null ? (row.payload as Record<string, unknown>) : {}
      claimed.push({
        id: row.id,
        address: row.address,
        eventId: row.event_id,
        type: row.type,
        orderId: row.order_id,
        payload,
        recipientLabel: row.recipient_label,
        rejectionReason: row.rejection_reason,
      })
    } else if (row.status !== 'pending') finished++
    else {
      held++
      const until = new Date(row.until ?? Date.now())
      if (!heldUntil || until > heldUntil) heldUntil = until
    }
  }
  return { token, claimed, held: { count: held, until: heldUntil }, finished, missing }
}
