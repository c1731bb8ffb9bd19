import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'

/**
 * What the short-form attack tests need so that the in-process API approves orders as the
 * web does (tests/chaos/orders.ts submitOrder's `approveAs`): the chain the web reads
 * approvers and the intent's domain from (RPC_URL, CHAIN_ID, MINTER_ADDRESS; set before
 * the web's config is first read), the approval routes, and the approver's session user,
 * the dev approver (key 10) whose key is bound to it.
 */
export async function handlerApprovals(
  db: Db,
  chain: Pick<ChainFixture, 'rpcUrl' | 'chainId' | 'minterAddress'>,
): Promise<{ approver: SessionUser; routes: Record<string, RouteHandler> }> {
  process.env.RPC_URL = chain.rpcUrl
  process.env.CHAIN_ID = String(chain.chainId)
  process.env.MINTER_ADDRESS = chain.minterAddress
  const [dev] = await ensureDevApprovers(db)
  if (!dev) throw new Error('no dev approver')
  const [row] = await db.execute<{ email: string }>(sql`select email from users where id = ${dev.userId}::uuid`)
  if (!row) throw new Error(`no user ${dev.userId}`)
  const approval = await import('@/app/api/gold/mint/[orderId]/approval/route')
  const approve = await import('@/app/api/gold/mint/[orderId]/approve/route')
  return {
    approver: { id: dev.userId, email: row.email, role: 'approver' },
    routes: {
      'GET /api/gold/mint/[orderId]/approval': approval.GET as RouteHandler,
      'POST /api/gold/mint/[orderId]/approve': approve.POST as RouteHandler,
    },
  }
}

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
