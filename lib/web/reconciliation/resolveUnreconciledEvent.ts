import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { ConflictError, NotFoundError } from '@/lib/web/errors/resource'
import type { ApiResolvedEvent } from './schemas'

export type ResolveUnreconciledEventParameters = { id: bigint; note: string; actor: AdminActor }

export type ResolveUnreconciledEventReturnType = ApiResolvedEvent

/**
 * An admin marks a chain event no row accounts for as resolved, with what they found and did (a note), audited in
 * the same transaction. It changes nothing else: the supply the event minted still counts in the reserves, so a
 * shortfall stays until bars back it or the tokens are burned. 404 for an unknown id, 409 when it is resolved already.
 */
export async function resolveUnreconciledEvent(
  db: Db,
  { id, note, actor }: ResolveUnreconciledEventParameters,
): Promise<ResolveUnreconciledEventReturnType> {
  return db.transaction(async (tx) => {
    const [row] = await tx.execute<{ resolved_at: string | null; event: string; tx_hash: string; log_index: number }>(
      sql`select resolved_at::text as resolved_at, event, tx_hash, log_index from unreconciled_events where id = ${id}::bigint for update`,
    )
    if (!row) throw new NotFoundError({ what: 'Unreconciled event' })
    if (row.resolved_at !== null) throw new ConflictError(`Unreconciled event ${id} is resolved already.`)
    const [done] = await tx.execute<{ resolved_at: string }>(sql`
      update unreconciled_events set resolved_at = now(), resolved_by = ${actor.email}, resolution_note = ${note}
      where id = ${id}::bigint
      returning to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as resolved_at`)
    await recordAudit(tx, {
      actor,
      action: 'reconciliation.resolve',
      targetType: 'unreconciled_event',
      targetId: id.toString(),
      detail: { note, event: row.event, txHash: row.tx_hash, logIndex: row.log_index },
    })
    return { id: id.toString(), resolvedAt: done?.resolved_at ?? '', resolvedBy: actor.email, note }
  })
}
