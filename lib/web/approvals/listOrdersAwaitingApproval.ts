import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { uuidArraySql } from '@/lib/vault/uuidArraySql'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiMintBar } from '@/lib/web/mint/apiTypes'
import { toApiMintBar } from '@/lib/web/mint/toApiMintBar'
import type { OrderAwaitingApproval, OrdersAwaitingApproval } from './OrdersAwaitingApproval'

export const APPROVAL_QUEUE_LIMIT = 100

export type ListOrdersAwaitingApprovalParameters = {
  /** the approver or admin looking: their own requests are marked `mine` */
  user: Pick<SessionUser, 'id'>
  /** 1..100, default 100 */
  limit?: number
}

export type ListOrdersAwaitingApprovalReturnType = OrdersAwaitingApproval

/**
 * The approvals page's queue: every order awaiting approval, oldest first (first come,
 * first decided), with its bars, its requester and whether the viewer requested it. Two
 * statements: the orders, then the bars of those orders. Callers check the role
 * (approvers and admins read every order).
 */
export async function listOrdersAwaitingApproval(
  db: DbOrTx,
  p: ListOrdersAwaitingApprovalParameters,
): Promise<ListOrdersAwaitingApprovalReturnType> {
  const limit = Math.min(Math.max(p.limit ?? APPROVAL_QUEUE_LIMIT, 1), APPROVAL_QUEUE_LIMIT)
  const orders = await db.execute<{
    id: string
    amount_wei: string
    to_address: string
    vault: string
    receipt_ref: string
    document_sha256: string
    requested_by: string
    requested_by_email: string
    created_at: Date | string
    total: number
  }>(sql`
    select o.id::text, o.amount_wei::text, o.to_address, o.vault, o.receipt_ref, o.document_sha256,
           o.requested_by::text, u.email as requested_by_email, o.created_at,
           count(*) over ()::int as total
      from mint_orders o join users u on u.id = o.requested_by
     where o.status = 'awaiting_approval'
     order by o.created_at, o.id
     limit ${limit}`)
  if (orders.length === 0) return { items: [], more: 0 }

  const bars = await db.execute<MintBarRow & { order_id: string }>(sql`
    select m.order_id::text, b.serial, b.refiner, b.year, b.gross_oz::text as gross_oz, b.fineness::text as fineness, b.fine_oz::text as fine_oz
      from mint_order_bars m join vault_bars b on b.id = m.bar_id
     where m.order_id = any(${uuidArraySql(orders.map((o) => o.id))})
     order by m.order_id, m.position`)
  const barsOf = new Map<string, ApiMintBar[]>()
  for (const row of bars) {
    const list = barsOf.get(row.order_id) ?? []
    list.push(
      toApiMintBar({
        serial: row.serial,
        refiner: row.refiner,
        year: row.year,
        grossOz: row.gross_oz,
        fineness: row.fineness,
        fineOz: row.fine_oz,
      }),
    )
    barsOf.set(row.order_id, list)
  }

  const items: OrderAwaitingApproval[] = orders.map((o) => ({
    orderId: o.id,
    amount: formatOrderAmount(o.amount_wei),
    to: o.to_address,
    vault: o.vault,
    receiptRef: o.receipt_ref,
    documentSha256: o.document_sha256,
    requestedBy: o.requested_by_email,
    createdAt: new Date(o.created_at).toISOString(),
    mine: o.requested_by === p.user.id,
    bars: barsOf.get(o.id) ?? [],
  }))
  return { items, more: Math.max(0, (orders[0]?.total ?? 0) - items.length) }
}

type MintBarRow = { serial: string; refiner: string; year: number; gross_oz: string; fineness: string; fine_oz: string }
