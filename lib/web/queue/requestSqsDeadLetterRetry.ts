import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { reopenFailedOrder } from '@/lib/web/admin/retryJobs'

export type RequestSqsDeadLetterRetryParameters = {
  /** the messages to retry; `'all'`: every dead letter listed and not yet asked for */
  messageIds: string[] | 'all'
  actor: AdminActor
}

export type RequestSqsDeadLetterRetryReturnType = {
  retried: string[]
  skipped: { messageId: string; reason: 'not_found' | 'already_requested' }[]
}

/**
 * An admin's retry of SQS dead letters, in one transaction: each message is
 * stamped for the worker, which moves it back to the queue at its next scan (the web has
 * no SQS rights); its job's history gets fresh attempts ('queued', attempts 0, a 'retried'
 * event); a failed order goes back to pending or submitted with its bars (the same reopen
 * as a graphile retry, lib/web/admin/retryJobs); audited as job.retry.
 */
export async function requestSqsDeadLetterRetry(
  db: Db,
  p: RequestSqsDeadLetterRetryParameters,
): Promise<RequestSqsDeadLetterRetryReturnType> {
  if (p.messageIds !== 'all' && p.messageIds.length === 0) return { retried: [], skipped: [] }
  return db.transaction(async (tx) => {
    const wanted = p.messageIds === 'all' ? null : p.messageIds.slice(0, 500)
    const rows = await tx.execute<{
      message_id: string
      job_id: string | null
      order_id: string | null
      requested: boolean
    }>(sql`
      select message_id, job_id::text as job_id, order_id::text as order_id, retry_requested_at is not null as requested
      from sqs_dead_letters
      where ${wanted ? sql`message_id in ${wanted}` : sql`true`}
      order by first_seen_at
      limit 500
      for update`)
    const retried: string[] = []
    const skipped: RequestSqsDeadLetterRetryReturnType['skipped'] = []
    for (const id of wanted ?? [])
      if (!rows.some((r) => r.message_id === id)) skipped.push({ messageId: id, reason: 'not_found' })
    for (const r of rows) {
      if (r.requested) {
        if (wanted) skipped.push({ messageId: r.message_id, reason: 'already_requested' })
        continue
      }
      await tx.execute(sql`
        update sqs_dead_letters set retry_requested_at = now(), retry_requested_by = ${p.actor.email} where message_id = ${r.message_id}`)
      if (r.job_id) {
        await tx.execute(sql`
          update job_records set state = 'queued', attempts = 0, last_error = null, finished_at = null, updated_at = now()
          where job_id = ${r.job_id}::bigint`)
        await recordJobEvent(tx, {
          event: 'retried',
          task: TASK.mintSend,
          orderId: r.order_id,
          jobId: BigInt(r.job_id),
          actor: p.actor.email,
          detail: 'SQS dead letter moved back to the queue',
        })
      }
      if (r.order_id) await reopenFailedOrder(tx, r.order_id)
      await recordAudit(tx, {
        actor: p.actor,
        action: 'job.retry',
        targetType: 'job',
        targetId: r.job_id ?? r.message_id,
        detail: { transport: 'sqs', messageId: r.message_id, orderId: r.order_id },
      })
      retried.push(r.message_id)
    }
    return { retried, skipped }
  })
}
