import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { claimableSql, takeClaimSql } from './claimSql'

/** the two kinds of claim rows: one per (event, endpoint) and one per (event, address) */
export type NotificationTable = 'webhook_deliveries' | 'email_deliveries'

export type ClaimNotificationParameters = { table: NotificationTable; id: string; leaseMs: number }

export type ClaimNotificationReturnType =
  /** ours until `until`: send, then complete with `token` */
  | { outcome: 'claimed'; token: string; attempts: number; until: Date }
  /** delivered, sent, dead or cancelled: nothing to send */
  | { outcome: 'finished'; status: string }
  /** another attempt holds it (alive, or crashed and its lease not over yet) */
  | { outcome: 'held'; until: Date }
  | { outcome: 'missing' }

/**
 * Takes the claim of one delivery or email BEFORE sending, in its own committed statement
 * ("once per recipient"): only a `pending` row whose previous claim is over can be
 * claimed, for leaseMs. A worker that dies after sending and before completing leaves its
 * claim; once the lease is over the next attempt claims and sends again: a late duplicate
 * at worst, never a lost message. (An email job's rows are claimed together: claimEmails.)
 */
export async function claimNotification(
  db: DbOrTx,
  { table, id, leaseMs }: ClaimNotificationParameters,
): Promise<ClaimNotificationReturnType> {
  const t = sql.identifier(table)
  const claimed = await db.execute<{ token: string; attempts: number; until: string }>(sql`
    update ${t} set ${takeClaimSql({ token: randomUUID(), leaseMs })}
    where id = ${id}::uuid and ${claimableSql}
    returning claim_token::text as token, attempts, claimed_until::text as until`)
  const row = claimed[0]
  if (row) return { outcome: 'claimed', token: row.token, attempts: row.attempts, until: new Date(row.until) }
  const found = await db.execute<{ status: string; until: string | null }>(
    sql`select status, claimed_until::text as until from ${t} where id = ${id}::uuid`,
  )
  const current = found[0]
  if (!current) return { outcome: 'missing' }
  if (current.status !== 'pending') return { outcome: 'finished', status: current.status }
  return { outcome: 'held', until: new Date(current.until ?? Date.now()) }
}
