import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { ValidationError } from '@/lib/web/errors/request'
import { type ApiVaultBarList, type BarStatus, barStatuses } from './apiTypes'
import { decodeVaultCursor } from './vaultCursor'
import { vaultPage } from './vaultPage'
import { vaultPageLimit } from './vaultPageLimit'

export const LIST_VAULT_BARS_DEFAULT_LIMIT = 100
export const LIST_VAULT_BARS_MAX_LIMIT = 500

export type ListVaultBarsParameters = {
  user: Pick<SessionUser, 'id' | 'role'>
  vault?: string
  status?: BarStatus
  /** searched in serial and refiner, compared as their keys (no case, spaces or dashes) */
  q?: string
  cursor?: string
  /** 1..500, default 100 */
  limit?: number
}

export type ListVaultBarsReturnType = ApiVaultBarList

/**
 * The inventory, one page at a time: by vault, then serial and refiner (their keys),
 * keyset-paginated. Filters: vault, status, and `q` contained in the serial or the refiner
 * (compared as keys, so 'ab-12' finds 'AB123'). The order holding a bar is shown to
 * admins (and approvers), and to staff only for their own orders. The first page (no cursor) also says how many bars
 * match in all.
 */
export async function listVaultBars(db: DbOrTx, p: ListVaultBarsParameters): Promise<ListVaultBarsReturnType> {
  const limit = vaultPageLimit(p.limit, { fallback: LIST_VAULT_BARS_DEFAULT_LIMIT, max: LIST_VAULT_BARS_MAX_LIMIT })
  if (p.status !== undefined && !(barStatuses as readonly string[]).includes(p.status)) {
    throw new ValidationError([{ path: 'status', message: `must be one of ${barStatuses.join(', ')}` }])
  }
  const conditions: SQL[] = []
  if (p.vault !== undefined) conditions.push(sql`b.vault = ${p.vault}`)
  if (p.status !== undefined) conditions.push(sql`b.status = ${p.status}::bar_status`)
  const needle = (p.q ?? '').replace(/[ -]+/g, '').toUpperCase()
  if (needle !== '') {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    conditions.push(sql`(b.serial_key like ${pattern} or b.refiner_key like ${pattern})`)
  }
  const filters = [...conditions]
  if (p.cursor !== undefined) {
    const [vault, serialKey, refinerKey] = decodeVaultCursor(p.cursor, 3)
    conditions.push(sql`(b.vault, b.serial_key, b.refiner_key) > (${vault}, ${serialKey}, ${refinerKey})`)
  }
  const seesEveryOrder = p.user.role !== 'staff'
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
  const rows = await db.execute<{
    id: string
    vault: string
    serial: string
    refiner: string
    serial_key: string
    refiner_key: string
    year: number
    gross_oz: string
    fineness: string
    fine_oz: string
    status: BarStatus
    order_id: string | null
    redemption_id: string | null
    updated_at: Date | string
  }>(sql`
    select b.id::text as id, b.vault, b.serial, b.refiner, b.serial_key, b.refiner_key, b.year,
           b.gross_oz::text as gross_oz, b.fineness::text as fineness, b.fine_oz::text as fine_oz, b.status::text as status,
           case when ${seesEveryOrder} or o.requested_by = ${p.user.id}::uuid then b.order_id::text end as order_id,
           b.redemption_id::text as redemption_id, b.updated_at
    from ${searchesTrigrams(needle) ? sql`(select b.* from vault_bars b ${where} offset 0) b` : sql`vault_bars b`}
      left join mint_orders o on o.id = b.order_id
    ${searchesTrigrams(needle) ? sql`` : where}
    order by b.vault, b.serial_key, b.refiner_key
    limit ${limit + 1}`)

  const { page, nextCursor } = vaultPage(rows, { limit, sortKeyOf: (r) => [r.vault, r.serial_key, r.refiner_key] })
  return {
    total: p.cursor === undefined ? await countBars(db, filters) : null,
    items: page.map((r) => ({
      id: r.id,
      vault: r.vault,
      serial: r.serial,
      refiner: r.refiner,
      year: r.year,
      grossOz: r.gross_oz,
      fineness: trimFineness(r.fineness),
      fineOz: r.fine_oz,
      status: r.status,
      orderId: r.order_id,
      redemptionId: r.redemption_id,
      updatedAt: new Date(r.updated_at).toISOString(),
    })),
    nextCursor,
  }
}

/**
 * A search of three characters or more finds its bars through the keys' trigram indexes first, then sorts them
 * (OFFSET 0 keeps the planner from walking the list's order instead): a serial matches a handful of bars, and the
 * walk in the list's order, planned for the 1% of bars a LIKE is estimated to match, read every bar before it found
 * them. A shorter one matches too many bars to gather (and has no trigram): the list's order is walked.
 */
function searchesTrigrams(needle: string): boolean {
  return needle.length >= 3
}

/** How many bars the filters match (the vault and status index serves the count of a vault's available bars). */
async function countBars(db: DbOrTx, filters: SQL[]): Promise<number> {
  const where = filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``
  const [row] = await db.execute<{ count: number }>(sql`select count(*)::int as count from vault_bars b ${where}`)
  return Number(row?.count ?? 0)
}

/** "999.90" -> "999.9", as the mint API shows fineness */
function trimFineness(value: string): string {
  return formatDecimal(parseDecimal(value, { decimals: 2 }), { decimals: 2, minFraction: 1 })
}
