import { sql as dsql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import * as schema from '../../db/schema'
import { completeJobs } from '../../lib/jobs/completeJobs'
import { TASK } from '../../lib/jobs/jobKeys'
import { liveJobsSql } from '../../lib/jobs/liveJobsSql'
import { releaseBars } from '../../lib/vault/releaseBars'

/**
 * The intake's orders are not the pipeline's (they wait for approval, with no job): the mint_send jobs there are go,
 * and the orders are cancelled
 * before a worker starts, freeing their bars as a cancel does (lib/vault/releaseBars), so
 * the pipeline's runs find the inventory a real desk would have, not thousands of bars
 * held by cancelled orders.
 */
export async function dropQueuedOrders(sql: postgres.Sql): Promise<void> {
  const db = drizzle(sql, { schema })
  const jobs = await db.execute<{ job_id: string }>(
    dsql`select l.job_id::text as job_id from ${liveJobsSql} l where l.task = ${TASK.mintSend}`,
  )
  await completeJobs(db, { jobIds: jobs.map((j) => BigInt(j.job_id)) })
  await db.transaction(async (tx) => {
    const cancelled = await tx.execute<{ id: string }>(
      dsql`update mint_orders set status = 'cancelled', updated_at = now()
        where status in ('pending', 'awaiting_approval') returning id::text as id`,
    )
    for (const { id } of cancelled) await releaseBars(tx, { orderId: id })
  })
}
