import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ApiAuditPage } from './responseSchemas'
import { type ListAuditQuery, MAX_AUDIT_PAGE } from './schemas'

const DEFAULT_PAGE = 50

/**
 * GET /api/admin/audit: the audit log newest first (by its chain), filtered by actor (an email or its start, any
 * case), action (one, or a family ending in a dot), target (a type, `type:id`, or an id) and time, in keyset pages:
 * `nextCursor` is the last row's seq, null on the last page.
 */
export async function listAudit(db: DbOrTx, q: ListAuditQuery): Promise<ApiAuditPage> {
  const limit = Math.min(q.limit ?? DEFAULT_PAGE, MAX_AUDIT_PAGE)
  const actor = q.actor ? `${escapeLike(q.actor.toLowerCase())}%` : null
  const action = q.action ? (q.action.endsWith('.') ? `${escapeLike(q.action)}%` : escapeLike(q.action)) : null
  const [targetType, targetId] = splitTarget(q.target)
  const rows = await db.execute<{
    seq: string
    id: string
    at: string
    actor_id: string | null
    actor_email: string
    action: string
    target_type: string
    target_id: string
    detail: unknown
    prev_hash: string
    row_hash: string
  }>(sql`
    select chain_seq::text as seq, id::text as id,
      to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      actor_id::text as actor_id, actor_email, action, target_type, target_id, detail, prev_hash, row_hash
    from audit_log
    where (${actor}::text is null or lower(actor_email) like ${actor}::text)
      and (${action}::text is null or action like ${action}::text)
      and (${targetType}::text is null or target_type = ${targetType}::text)
      and (${targetId}::text is null or target_id = ${targetId}::text)
      and (${q.from?.toISOString() ?? null}::timestamptz is null or at >= ${q.from?.toISOString() ?? null}::timestamptz)
      and (${q.to?.toISOString() ?? null}::timestamptz is null or at < ${q.to?.toISOString() ?? null}::timestamptz)
      and (${q.cursor ?? null}::bigint is null or chain_seq < ${q.cursor ?? null}::bigint)
    order by chain_seq desc
    limit ${limit + 1}`)
  const page = rows.slice(0, limit)
  return {
    items: page.map((r) => ({
      seq: r.seq,
      id: r.id,
      at: r.at,
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      detail: r.detail ?? null,
      prevHash: r.prev_hash,
      hash: r.row_hash,
    })),
    nextCursor: rows.length > limit ? (page.at(-1)?.seq ?? null) : null,
  }
}

/** `order:5b1c` -> type and id; `order` (letters and underscores) -> a type; anything else -> an id */
function splitTarget(target: string | undefined): [string | null, string | null] {
  if (!target) return [null, null]
  const colon = target.indexOf(':')
  if (colon > 0) return [target.slice(0, colon), target.slice(colon + 1)]
  return /^[a-z_]+$/.test(target) ? [target, null] : [null, target]
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}
