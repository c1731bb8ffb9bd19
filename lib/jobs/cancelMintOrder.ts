import { and, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords, mintOrders } from '@/db/schema'
import { ConflictError, NotFoundError } from '@/lib/errors'
import { mintConfirmJobKey, mintSendJobKey, TASK } from './jobKeys'
import { recordJobEvent } from './recordJobEvent'
import { releaseOrderNonce, type ReleaseOrderNonceReturnType } from './releaseOrderNonce'

export type CancelMintOrderParameters = {
  orderId: string
  /** the admin's email, for the timeline (the caller writes audit_log) */
  actor: string
  reason?: string
}

export type CancelMintOrderReturnType = {
  /** the nonce handed back for a gap fill, if the order held one */
  releasedNonce: ReleaseOrderNonceReturnType
  /** graphile-worker jobs of the order that were removed (waiting or dead) */
  removedJobIds: bigint[]
}

/**
 * An admin cancels an order that is `pending` or `failed`, inside the caller's
 * transaction (which also writes audit_log): its waiting or dead jobs are removed from
 * the queue (job_records -> cancelled, a 'cancelled' event each), the order becomes
 * `cancelled`, and a nonce it held is released for a gap fill (releaseOrderNonce).
 * Refused (ConflictError) while one of its jobs is running, and for orders already
 * submitted, confirmed or cancelled.
 */
export async function cancelMintOrder(db: DbOrTx, { orderId, actor, reason }: CancelMintOrderParameters): Promise<CancelMintOrderReturnType> {
  const [order] = await db.select().from(mintOrders).where(eq(mintOrders.id, orderId)).for('update')
  if (!order) throw new NotFoundError({ what: 'Order' })
  if (order.status !== 'pending' && order.status !== 'failed') {
    throw new ConflictError(`Only a pending or failed order can be cancelled; this one is ${order.status}.`)
  }

  const jobs = await db.execute<{ id: bigint; locked_at: string | null }>(sql`
    select id, locked_at from graphile_worker._private_jobs
    where key in (${mintSendJobKey(orderId)}, ${mintConfirmJobKey(orderId)})
       or id in (select job_id from job_records where order_id = ${orderId}::uuid)
    for update`)
  if (jobs.some((j) => j.locked_at !== null)) throw new ConflictError('A job of this order is running; try again in a moment.')
  const removedJobIds = jobs.map((j) => BigInt(j.id))
  if (removedJobIds.length > 0) {
    await db.execute(sql`delete from graphile_worker._private_jobs where id in (${sql.join(
      removedJobIds.map((id) => sql`${id}::bigint`),
      sql`, `,
    )})`)
  }

  const open = await db
    .update(jobRecords)
    .set({ state: 'cancelled', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(jobRecords.orderId, orderId), notInArray(jobRecords.state, ['done', 'cancelled'])))
    .returning({ jobId: jobRecords.jobId, task: jobRecords.task })
  for (const job of open) {
    await recordJobEvent(db, { event: 'cancelled', task: job.task, orderId, jobId: job.jobId, actor, detail: reason ?? 'order cancelled' })
  }
  if (open.length === 0) await recordJobEvent(db, { event: 'cancelled', task: TASK.mintSend, orderId, actor, detail: reason ?? 'order cancelled' })

  await db
    .update(mintOrders)
    .set({ status: 'cancelled', failureReason: reason ?? order.failureReason, updatedAt: new Date() })
    .where(and(eq(mintOrders.id, orderId), inArray(mintOrders.status, ['pending', 'failed'])))
  const releasedNonce = await releaseOrderNonce(db, { orderId, actor })
  return { releasedNonce, removedJobIds }
}
