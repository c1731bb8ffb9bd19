import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, orderConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'

/**
 * TEST ONLY: jobs for the integration tests, real rows in a real database (no mocks):
 * added through the real addJob, then put into each state the way graphile-worker and
 * the worker would leave them.
 */

/** A mint job for an order, through the real addJob (graphile-worker row + job_records + 'enqueued'). */
export async function addMintJob(
  db: DbOrTx,
  p: { orderId: string; task?: 'mint_send' | 'order_confirm'; maxAttempts?: number; runAt?: Date },
): Promise<bigint> {
  const task = p.task ?? TASK.mintSend
  const { jobId } = await addJob(db, {
    task,
    payload: { orderId: p.orderId },
    jobKey: task === TASK.mintSend ? mintSendJobKey(p.orderId) : orderConfirmJobKey(p.orderId),
    orderId: p.orderId,
    maxAttempts: p.maxAttempts ?? 5,
    runAt: p.runAt,
  })
  return jobId
}

export async function addPlainJob(
  db: DbOrTx,
  p: { task: string; maxAttempts?: number; runAt?: Date },
): Promise<bigint> {
  const { jobId } = await addJob(db, { task: p.task, payload: {}, maxAttempts: p.maxAttempts ?? 5, runAt: p.runAt })
  return jobId
}

/** Puts a live job in a state the way graphile-worker and the worker would leave it. */
export async function setJobState(
  db: DbOrTx,
  jobId: bigint,
  state: 'queued' | 'scheduled' | 'running' | 'retrying' | 'dead',
  opts: { error?: string; workerId?: string; attempts?: number } = {},
): Promise<void> {
  const id = jobId.toString()
  const error = opts.error ?? 'Error: boom'
  switch (state) {
    case 'queued':
      await db.execute(
        sql`update graphile_worker._private_jobs set attempts = 0, last_error = null, locked_at = null, locked_by = null, run_at = now() where id = ${id}::bigint`,
      )
      break
    case 'scheduled':
      await db.execute(
        sql`update graphile_worker._private_jobs set run_at = now() + interval '1 hour' where id = ${id}::bigint`,
      )
      break
    case 'running':
      await db.execute(
        sql`update graphile_worker._private_jobs set attempts = attempts + 1, locked_at = now(), locked_by = ${opts.workerId ?? 'worker-1'} where id = ${id}::bigint`,
      )
      await db.execute(sql`update job_records set state = 'running' where job_id = ${id}::bigint`)
      break
    case 'retrying':
      await db.execute(
        sql`update graphile_worker._private_jobs set attempts = ${opts.attempts ?? 1}, last_error = ${error}, run_at = now() + interval '30 seconds', locked_at = null, locked_by = null where id = ${id}::bigint`,
      )
      await db.execute(
        sql`update job_records set state = 'retrying', attempts = ${opts.attempts ?? 1}, last_error = ${error} where job_id = ${id}::bigint`,
      )
      break
    case 'dead':
      await db.execute(
        sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = ${error}, locked_at = null, locked_by = null where id = ${id}::bigint`,
      )
      await db.execute(
        sql`update job_records set state = 'dead', attempts = max_attempts, last_error = ${error} where job_id = ${id}::bigint`,
      )
      break
  }
}

/** A job that completed: graphile-worker deleted it, the history says done. */
export async function completeJob(db: DbOrTx, jobId: bigint): Promise<void> {
  const id = jobId.toString()
  await db.execute(sql`delete from graphile_worker._private_jobs where id = ${id}::bigint`)
  await db.execute(sql`update job_records set state = 'done', finished_at = now() where job_id = ${id}::bigint`)
}
