import type postgres from 'postgres'
import type { AuditChainRow } from './auditRowHash'

export type ReadAuditChainRowsParameters = {
  /** rows at or after this time, and before `to` (either may be absent) */
  from?: Date
  to?: Date
  /** rows read from the database at a time: what is held in memory however long the log */
  batchSize?: number
}

/**
 * The audit rows in chain order (oldest first), as text fields (AuditChainRow: what their hash covers), read
 * through a server-side cursor a batch at a time, so a million rows cost the memory of one batch. The export and
 * `npm run audit:verify` read them so.
 */
export async function* readAuditChainRows(
  sql: postgres.Sql,
  p: ReadAuditChainRowsParameters = {},
): AsyncGenerator<AuditChainRow> {
  const from = p.from?.toISOString() ?? null
  const to = p.to?.toISOString() ?? null
  const query = sql<
    {
      seq: string
      id: string
      at: string
      actor_id: string | null
      actor_email: string
      action: string
      target_type: string
      target_id: string
      detail: string | null
      prev_hash: string
      row_hash: string
    }[]
  >`
    select chain_seq::text as seq, id::text as id,
      to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      actor_id::text as actor_id, actor_email, action, target_type, target_id, detail::text as detail,
      prev_hash, row_hash
    from audit_log
    where (${from}::timestamptz is null or at >= ${from}::timestamptz)
      and (${to}::timestamptz is null or at < ${to}::timestamptz)
    order by chain_seq`
  for await (const rows of query.cursor(p.batchSize ?? 500))
    for (const r of rows)
      yield {
        seq: r.seq,
        id: r.id,
        at: r.at,
        actorId: r.actor_id,
        actorEmail: r.actor_email,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        detail: r.detail,
        prevHash: r.prev_hash,
        hash: r.row_hash,
      }
}
