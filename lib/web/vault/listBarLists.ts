import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { ValidationError } from '@/lib/web/errors/request'
import type { ApiBarListList } from './apiTypes'
import { decodeVaultCursor } from './vaultCursor'
import { vaultPage } from './vaultPage'
import { vaultPageLimit } from './vaultPageLimit'

export const LIST_BAR_LISTS_DEFAULT_LIMIT = 50
export const LIST_BAR_LISTS_MAX_LIMIT = 200

export type ListBarListsParameters = {
  vault?: string
  cursor?: string
  /** 1..200, default 50 */
  limit?: number
}

export type ListBarListsReturnType = ApiBarListList

/**
 * The bar lists imported, newest import first (imported_at, then id), keyset-paginated,
 * with their counts (`missingCount`, `conflictCount`: the lists themselves are in the
 * import's answer) and who imported each.
 */
export async function listBarLists(db: DbOrTx, p: ListBarListsParameters): Promise<ListBarListsReturnType> {
  const limit = vaultPageLimit(p.limit, { fallback: LIST_BAR_LISTS_DEFAULT_LIMIT, max: LIST_BAR_LISTS_MAX_LIMIT })
  const conditions: SQL[] = []
  if (p.vault !== undefined) conditions.push(sql`l.vault = ${p.vault}`)
  if (p.cursor !== undefined) {
    const [micros, id] = decodeVaultCursor(p.cursor, 2)
    if (!/^[0-9]{1,19}$/.test(micros ?? '') || !/^[0-9a-f-]{36}$/.test(id ?? '')) {
      throw new ValidationError([{ path: 'cursor', message: 'is not a valid cursor' }], 'The query string is invalid.')
    }
    conditions.push(
      sql`(l.imported_at, l.id) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${id}::uuid)`,
    )
  }
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
  const rows = await db.execute<{
    id: string
    vault: string
    as_of: Date | string
    imported_at: Date | string
    micros: string
    imported_by: string | null
    content_sha256: string
    bar_count: number
    added: number
    unchanged: number
    withdrawn: number
    missing_count: number
    conflict_count: number
    metadata: Record<string, unknown> | null
  }>(sql`
    select l.id::text as id, l.vault, l.as_of, l.imported_at, (extract(epoch from l.imported_at) * 1000000)::bigint::text as micros,
           u.email as imported_by, l.content_sha256, l.bar_count, l.added, l.unchanged, l.withdrawn,
           jsonb_array_length(l.missing)::int as missing_count, jsonb_array_length(l.conflicts)::int as conflict_count, l.metadata
    from bar_lists l left join users u on u.id = l.imported_by
    ${where}
    order by l.imported_at desc, l.id desc
    limit ${limit + 1}`)
  const { page, nextCursor } = vaultPage(rows, { limit, sortKeyOf: (r) => [r.micros, r.id] })
  return {
    items: page.map((r) => ({
      listId: r.id,
      vault: r.vault,
      asOf: new Date(r.as_of).toISOString(),
      importedAt: new Date(r.imported_at).toISOString(),
      importedBy: r.imported_by,
      contentSha256: r.content_sha256,
      barCount: r.bar_count,
      added: r.added,
      unchanged: r.unchanged,
      withdrawn: r.withdrawn,
      missingCount: r.missing_count,
      conflictCount: r.conflict_count,
      metadata: r.metadata,
    })),
    nextCursor,
  }
}
