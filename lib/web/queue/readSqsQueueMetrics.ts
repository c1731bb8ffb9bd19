import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { ApiSqsQueueMetrics } from './apiTypes'
import { neededDeadLetterSql } from './neededDeadLetterSql'

/**
 * The SQS transport's queue figures for the dashboard and Prometheus, read from Postgres
 * so the web needs no SQS rights: the outbox's unsent rows; depth and in
 * flight from the history of the jobs whose message was sent (queued or retrying: waiting
 * in the queue; running: received, its visibility extended); the oldest unfinished
 * message's age; the DLQ's messages as the worker last listed them (those their job still
 * needs). CloudWatch watches the queues themselves in production (deploy/lib/addQueue.ts).
 */
export async function readSqsQueueMetrics(db: DbOrTx): Promise<ApiSqsQueueMetrics> {
  const [row] = await db.execute<{
    unsent: number
    depth: number
    in_flight: number
    oldest: number | null
    dead: number
  }>(sql`
    select
      (select count(*) from sqs_outbox where sent_at is null)::int as unsent,
      count(*) filter (where r.state in ('queued', 'retrying'))::int as depth,
      count(*) filter (where r.state = 'running')::int as in_flight,
      extract(epoch from now() - min(x.sent_at))::float8 as oldest,
      (select count(*) from sqs_dead_letters d where ${neededDeadLetterSql})::int as dead
    from sqs_outbox x
    join job_records r on r.job_id = x.job_id
    where x.sent_at is not null and r.state in ('queued', 'retrying', 'running')`)
  return {
    unsent: row?.unsent ?? 0,
    depth: row?.depth ?? 0,
    inFlight: row?.in_flight ?? 0,
    oldestAgeSeconds: Math.max(0, Math.round(row?.oldest ?? 0)),
    deadLetters: row?.dead ?? 0,
  }
}
