import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type ControlChangeStatus, controlChanges } from '@/db/schema/controlChanges'
import type { ApiControlChangeList } from './apiTypes'
import { decodeControlChangeCursor, encodeControlChangeCursor } from './controlChangeCursor'
import { toApiControlChanges } from './toApiControlChanges'

export type ListControlChangesParameters = {
  status?: ControlChangeStatus
  /** the previous page's nextCursor */
  cursor?: string
  /** page size (default 50) */
  limit?: number
}

/** Control changes, newest first, optionally of one status; keyset pages (`nextCursor`). */
export async function listControlChanges(
  db: DbOrTx,
  p: ListControlChangesParameters = {},
): Promise<ApiControlChangeList> {
  const limit = p.limit ?? 50
  const where: SQL[] = []
  if (p.status) where.push(eq(controlChanges.status, p.status))
  if (p.cursor) {
    const after = decodeControlChangeCursor(p.cursor)
    where.push(
      sql`(${controlChanges.createdAt}, ${controlChanges.id}) <
        (select c.created_at, c.id from control_changes c where c.id = ${after}::uuid)`,
    )
  }
  const rows = await db
    .select()
    .from(controlChanges)
    .where(and(...where))
    .orderBy(desc(controlChanges.createdAt), desc(controlChanges.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    items: await toApiControlChanges(db, page),
    nextCursor: rows.length > limit && last ? encodeControlChangeCursor(last.id) : null,
  }
}
