import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs } from '@/db/schema/chain'
import { jobEvents } from '@/db/schema/jobs'
import { notificationEvents } from '@/db/schema/notifications'
import { isUuid } from '@/lib/mint/isUuid'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { NotFoundError } from '@/lib/web/errors'
import type { ApiMintOrder } from './apiTypes'
import { readMintOrder } from './readMintOrder'
import { readsEveryOrder } from './readsEveryOrder'
import { type MintEndingRows, toApiMintOrder } from './toApiMintOrder'

export type GetMintOrderOrThrowParameters = {
  /** as given in the URL; anything that is not a uuid is simply not found */
  orderId: string
  user: Pick<SessionUser, 'id' | 'role'>
}

export type GetMintOrderOrThrowReturnType = ApiMintOrder

/**
 * One order as docs/api.md's GET /api/gold/mint/{orderId} shows it: its proof (bars in
 * request order), its transaction and its timeline; the order itself comes from the
 * one reader, readMintOrder. Staff read only their own orders: another user's order is
 * a NotFoundError (404), exactly like an unknown id, so ids cannot be probed. Approvers
 * and admins read every order (they decide on others' requests). Reads the database only, never the chain:
 * `tx.confirmations` is the count the worker last stored in the timeline, else null. A failed or cancelled order's
 * `outcome` comes from its latest mint.failed event of that status and its 'cancelled' timeline event.
 */
export async function getMintOrderOrThrow(
  db: DbOrTx,
  p: GetMintOrderOrThrowParameters,
): Promise<GetMintOrderOrThrowReturnType> {
  if (!isUuid(p.orderId)) throw new NotFoundError({ what: 'Order' })
  const orderId = p.orderId.toLowerCase()

  const order = await readMintOrder(db, { orderId, requestedBy: readsEveryOrder(p.user.role) ? undefined : p.user.id })
  if (!order) throw new NotFoundError({ what: 'Order' })

  const [txs, timeline] = await Promise.all([
    // the mined transaction if one is (a replacement may have won), else the newest signed
    db
      .select({ hash: chainTxs.hash, nonce: chainTxs.nonce, minedBlock: chainTxs.minedBlock })
      .from(chainTxs)
      .where(eq(chainTxs.orderId, orderId))
      .orderBy(sql`${chainTxs.minedBlock} is null`, desc(chainTxs.createdAt))
      .limit(1),
    db
      .select({ at: jobEvents.at, event: jobEvents.event, detail: jobEvents.detail })
      .from(jobEvents)
      .where(eq(jobEvents.orderId, orderId))
      .orderBy(asc(jobEvents.at), asc(jobEvents.id)),
  ])
  const latestTx = txs[0] ?? null
  const blockNumber = order.blockNumber ?? latestTx?.minedBlock ?? null
  const [confirmations, ending] = await Promise.all([
    blockNumber === null ? null : storedConfirmations(db, { orderId, blockNumber }),
    readEnding(db, { orderId, status: order.status }),
  ])

  return toApiMintOrder({ order, latestTx, confirmations, timeline, ending })
}

/** How a failed or cancelled order ended (its reason code, who cancelled it); nothing to read for other statuses. */
async function readEnding(db: DbOrTx, p: { orderId: string; status: string }): Promise<MintEndingRows> {
  if (p.status !== 'failed' && p.status !== 'cancelled') return { failedEvent: null, cancelled: null }
  const [events, cancels] = await Promise.all([
    db
      .select({ payload: notificationEvents.payload, at: notificationEvents.createdAt })
      .from(notificationEvents)
      .where(
        and(
          eq(notificationEvents.orderId, p.orderId),
          eq(notificationEvents.type, 'mint.failed'),
          sql`${notificationEvents.payload}->>'status' = ${p.status}`,
        ),
      )
      .orderBy(desc(notificationEvents.createdAt))
      .limit(1),
    p.status === 'cancelled'
      ? db
          .select({ actor: jobEvents.actor, at: jobEvents.at })
          .from(jobEvents)
          .where(and(eq(jobEvents.orderId, p.orderId), eq(jobEvents.event, 'cancelled')))
          .orderBy(desc(jobEvents.at), desc(jobEvents.id))
          .limit(1)
      : [],
  ])
  return { failedEvent: events[0] ?? null, cancelled: cancels[0] ?? null }
}

/**
 * The confirmation count order_confirm stored with its latest event for this block
 * (`data: { blockNumber, confirmations }`, numbers or decimal strings), or null. Only an
 * event about the block the order is mined in counts, so a count from before a reorg
 * is never shown for the new block.
 */
async function storedConfirmations(db: DbOrTx, p: { orderId: string; blockNumber: bigint }): Promise<number | null> {
  const [row] = await db
    .select({ confirmations: sql<string>`${jobEvents.data}->>'confirmations'` })
    .from(jobEvents)
    .where(
      and(
        eq(jobEvents.orderId, p.orderId),
        sql`${jobEvents.data}->>'blockNumber' = ${p.blockNumber.toString()}`,
        sql`(${jobEvents.data}->>'confirmations') ~ '^[0-9]{1,9}$'`,
      ),
    )
    .orderBy(desc(jobEvents.at), desc(jobEvents.id))
    .limit(1)
  // at most 9 digits (checked above): a counter, not an amount, exact as a number
  return row ? Number(row.confirmations) : null
}
