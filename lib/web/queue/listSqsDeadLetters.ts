import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { isoSql } from '@/lib/web/admin/sql'
import type { ApiSqsDeadLetter } from './apiTypes'
import { neededDeadLetterSql } from './neededDeadLetterSql'

/**
 * The SQS dead-letter queue as the worker last listed it (sqs_dead_letters, decision
 * 021), with each message's order and its job's last error from the history: what the
 * admin dead-letters page shows beside graphile-worker's dead jobs. Oldest first, 500 at most;
 * a message its job no longer needs (retried or cancelled since, or done) is not shown: the
 * worker's next scan deletes it from the DLQ.
 */
export async function listSqsDeadLetters(db: DbOrTx): Promise<ApiSqsDeadLetter[]> {
  const rows = await db.execute<{
    message_id: string
    job_id: string | null
    order_id: string | null
    order_status: string | null
    receive_count: number
    last_error: string | null
    sent_at: string | null
    first_seen_at: string
    retry_requested_at: string | null
  }>(sql`
    select d.message_id, d.job_id::text as job_id, d.order_id::text as order_id, o.status::text as order_status,
      greatest(d.receive_count, coalesce(r.attempts, 0)) as receive_count, r.last_error,
      ${isoSql(sql`d.sent_at`)} as sent_at, ${isoSql(sql`d.first_seen_at`)} as first_seen_at,
      ${isoSql(sql`d.retry_requested_at`)} as retry_requested_at
    from sqs_dead_letters d
    left join job_records r on r.job_id = d.job_id
    left join mint_orders o on o.id = d.order_id
    where ${neededDeadLetterSql}
    order by d.first_seen_at, d.message_id
    limit 500`)
  return rows.map((r) => ({
    messageId: r.message_id,
    jobId: r.job_id,
    orderId: r.order_id,
    orderStatus: r.order_status,
    receiveCount: Number(r.receive_count),
    lastError: r.last_error ? (r.last_error.split('\n')[0] ?? '').slice(0, 500) : null,
    sentAt: r.sent_at,
    firstSeenAt: r.first_seen_at,
    retryRequestedAt: r.retry_requested_at,
  }))
}
