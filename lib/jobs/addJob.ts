import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { jobRecords } from '@/db/schema'
import { withTraceparent } from '@/lib/telemetry/traceparent'
import { recordJobEvent } from './recordJobEvent'

export type AddJobParameters = {
  task: string
  payload: Record<string, unknown>
  /** graphile-worker job_key: a second add with the same key replaces a waiting job */
  jobKey?: string
  maxAttempts?: number
  runAt?: Date
  /** graphile-worker queue: its jobs run one at a time across all workers (the notification lanes) */
  queueName?: string
  /** graphile-worker priority (lower runs first; 0 by default) */
  priority?: number
  /** graphile-worker flags: a worker may forbid jobs carrying one (e.g. the notification jobs' NOTIFY_JOB_FLAG) */
  flags?: string[]
  orderId?: string | null
  /** who enqueued it, for the timeline */
  actor?: string | null
  detail?: string | null
}

export type AddJobReturnType = { jobId: bigint }

/**
 * Adds a graphile-worker job inside the caller's transaction (the outbox: the business
 * rows and the job commit together or not at all), with its history row and its
 * 'enqueued' timeline event. WorkerUtils.addJob cannot join a transaction, so this
 * calls the SQL function graphile_worker.add_job directly.
 */
export async function addJob(tx: DbOrTx, p: AddJobParameters): Promise<AddJobReturnType> {
  const maxAttempts = p.maxAttempts ?? 5
  // the trace of the mint that adds the job goes with it (issue 17): its attempts join that trace
  const payload = withTraceparent(p.payload)
  const rows = await tx.execute<{ id: string }>(sql`
    select id::text as id from graphile_worker.add_job(
      ${p.task},
      ${JSON.stringify(payload)}::json,
      job_key => ${p.jobKey ?? null}::text,
      queue_name => ${p.queueName ?? null}::text,
      max_attempts => ${maxAttempts}::int,
      run_at => ${p.runAt ? p.runAt.toISOString() : null}::timestamptz,
      priority => ${p.priority ?? null}::int,
      flags => ${p.flags ? `{${p.flags.join(',')}}` : null}::text[]
    )`)
  const first = rows[0]
  if (!first) throw new Error(`graphile_worker.add_job returned no row for task ${p.task}`)
  const jobId = BigInt(first.id)
  await tx
    .insert(jobRecords)
    .values({
      jobId,
      task: p.task,
      orderId: p.orderId ?? null,
      state: p.runAt && p.runAt.getTime() > Date.now() ? 'scheduled' : 'queued',
      attempts: 0,
      maxAttempts,
      payload,
    })
    .onConflictDoUpdate({
      target: jobRecords.jobId,
      set: { state: 'queued', payload, updatedAt: new Date(), finishedAt: null },
    })
  await recordJobEvent(tx, {
    event: 'enqueued',
    task: p.task,
    orderId: p.orderId,
    jobId,
    actor: p.actor,
    detail: p.detail ?? (p.runAt ? `run at ${p.runAt.toISOString()}` : null),
  })
  return { jobId }
}
