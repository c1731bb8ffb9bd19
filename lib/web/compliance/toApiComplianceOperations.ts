import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import type { complianceOperations } from '@/db/schema/compliance'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import type { ApiComplianceEvent, ApiComplianceOperation, ApiComplianceSignature } from './apiTypes'

type Row = typeof complianceOperations.$inferSelect

/**
 * THE boundary from compliance_operations rows to the API's operations: each with its requester's and rejecter's
 * emails, its signatures (oldest first) and its timeline (job_events of its id, oldest first), read in three
 * statements for all of them.
 */
export async function toApiComplianceOperations(db: DbOrTx, rows: readonly Row[]): Promise<ApiComplianceOperation[]> {
  if (rows.length === 0) return []
  const ids = uuidArraySql(rows.map((r) => r.id))
  const userIds = [...new Set(rows.flatMap((r) => [r.requestedBy, r.rejectedBy ?? r.requestedBy]))]
  const [users, signatures, events] = await Promise.all([
    db.execute<{ id: string; email: string }>(
      sql`select id::text as id, email from users where id = any(${uuidArraySql(userIds)})`,
    ),
    db.execute<{ operation_id: string; signer_address: string; email: string; signed_at: Date | string }>(sql`
      select s.operation_id::text as operation_id, s.signer_address, u.email, s.signed_at
      from compliance_signatures s join users u on u.id = s.user_id
      where s.operation_id = any(${ids}) order by s.signed_at`),
    db.execute<{
      id: string
      order_id: string
      at: Date | string
      event: string
      task: string
      actor: string | null
      detail: string | null
    }>(sql`
      select id::text as id, order_id::text as order_id, at, event, task, actor, detail from job_events
      where order_id = any(${ids}) order by at, id`),
  ])
  const emailOf = new Map(users.map((u) => [u.id, u.email]))
  const signaturesOf = new Map<string, ApiComplianceSignature[]>()
  for (const s of signatures)
    signaturesOf.set(s.operation_id, [
      ...(signaturesOf.get(s.operation_id) ?? []),
      { signer: getAddress(s.signer_address), user: s.email, at: new Date(s.signed_at).toISOString() },
    ])
  const timelineOf = new Map<string, ApiComplianceEvent[]>()
  for (const e of events)
    timelineOf.set(e.order_id, [
      ...(timelineOf.get(e.order_id) ?? []),
      {
        id: e.id,
        at: new Date(e.at).toISOString(),
        event: e.event,
        task: e.task,
        actor: e.actor ?? '',
        detail: e.detail,
      },
    ])
  return rows.map((r) => ({
    operationId: r.id,
    action: r.action,
    account: r.account === null ? null : getAddress(r.account),
    reason: r.reason,
    batchId: r.batchId,
    status: r.status,
    requestedBy: emailOf.get(r.requestedBy) ?? r.requestedBy,
    requestedAt: r.createdAt.toISOString(),
    deadline: r.intentDeadline.toISOString(),
    signatures: signaturesOf.get(r.id) ?? [],
    txHash: r.txHash,
    blockNumber: r.blockNumber === null ? null : r.blockNumber.toString(),
    appliedAt: r.appliedAt?.toISOString() ?? null,
    failureReason: r.failureReason,
    rejectedBy: r.rejectedBy === null ? null : (emailOf.get(r.rejectedBy) ?? r.rejectedBy),
    rejectionReason: r.rejectionReason,
    timeline: timelineOf.get(r.id) ?? [],
  }))
}
