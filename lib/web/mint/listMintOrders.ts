import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema/chain'
import { type MintStatus, mintOrders } from '@/db/schema/mint'
import { users } from '@/db/schema/users'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { ValidationError } from '@/lib/web/errors'
import { type ApiMintOrderList, mintStatuses } from './apiTypes'
import { decodeMintOrderCursor, encodeMintOrderCursor } from './mintOrderCursor'
import { readsEveryOrder } from './readsEveryOrder'
import { toApiMintOrderSummary } from './toApiMintOrderSummary'

export const LIST_MINT_ORDERS_DEFAULT_LIMIT = 20
export const LIST_MINT_ORDERS_MAX_LIMIT = 100

export type ListMintOrdersParameters = {
  user: Pick<SessionUser, 'id' | 'role'>
  status?: MintStatus
  /** nextCursor of the previous page */
  cursor?: string
  /** 1..100, default 20 */
  limit?: number
}

export type ListMintOrdersReturnType = ApiMintOrderList

/**
 * Orders newest first (created_at, then id), one page at a time with keyset pagination:
 * a page never skips or repeats an order, even while new ones arrive. Staff see their
 * own orders, approvers and admins every order. An invalid status, cursor or limit is a
 * ValidationError (422) naming the parameter.
 */
export async function listMintOrders(db: DbOrTx, p: ListMintOrdersParameters): Promise<ListMintOrdersReturnType> {
  const limit = p.limit ?? LIST_MINT_ORDERS_DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MINT_ORDERS_MAX_LIMIT) {
    throw new ValidationError([{ path: 'limit', message: 'must be a whole number from 1 to 100' }])
  }
  if (p.status !== undefined && !(mintStatuses as readonly string[]).includes(p.status)) {
    throw new ValidationError([{ path: 'status', message: `must be one of ${mintStatuses.join(', ')}` }])
  }
  const cursor = p.cursor === undefined ? undefined : decodeMintOrderCursor(p.cursor)

  const conditions: SQL[] = []
  if (!readsEveryOrder(p.user.role)) conditions.push(eq(mintOrders.requestedBy, p.user.id))
  if (p.status !== undefined) conditions.push(eq(mintOrders.status, p.status))
  if (cursor) {
    conditions.push(
      sql`(${mintOrders.createdAt}, ${mintOrders.id}) < (timestamptz 'epoch' + ${cursor.createdAtMicros.toString()}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`,
    )
  }

  const rows = await db
    .select({
      id: mintOrders.id,
      status: mintOrders.status,
      toAddress: mintOrders.toAddress,
      amountWei: mintOrders.amountWei,
      vault: mintOrders.vault,
      requestedByEmail: users.email,
      createdAt: mintOrders.createdAt,
      createdAtMicros: sql<string>`(extract(epoch from ${mintOrders.createdAt}) * 1000000)::bigint::text`,
      // the confirmed transaction, else a mined one, else the newest signed one
      txHash: sql<
        string | null
      >`coalesce(${mintOrders.txHash}, (select ${chainTxs.hash} from ${chainTxs} where ${chainTxs.orderId} = ${mintOrders.id} order by ${chainTxs.minedBlock} is null, ${chainTxs.createdAt} desc limit 1))`,
    })
    .from(mintOrders)
    .innerJoin(users, eq(users.id, mintOrders.requestedBy))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(
      // nulls last as the indexes are (mint_orders_created_idx, ..._status_idx, ..._requested_by_created_idx): a plain
      // desc (nulls first) matches none of them and sorts every order; neither column is ever null
      sql`${mintOrders.createdAt} desc nulls last`,
      sql`${mintOrders.id} desc nulls last`,
    )
    .limit(limit + 1)

  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return {
    items: page.map(toApiMintOrderSummary),
    nextCursor:
      rows.length > limit && last
        ? encodeMintOrderCursor({ createdAtMicros: BigInt(last.createdAtMicros), id: last.id })
        : null,
  }
}
