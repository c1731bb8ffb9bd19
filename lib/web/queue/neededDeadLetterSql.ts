import { sql } from 'drizzle-orm'

/**
 * The condition on `d` (an sqs_dead_letters row) that its job still needs the message: not
 * of an older generation than its job's outbox row (the job was retried or cancelled
 * since, lib/web/queue/retrySqsJobs.ts) and not of a job that is done or cancelled. What the
 * dead-letter page lists and counts; the worker's next scan deletes the others from the
 * DLQ (worker/sqs/scanDeadLetterQueue.ts).
 */
export const neededDeadLetterSql = sql`(not exists (select 1 from sqs_outbox nx where nx.job_id = d.job_id and nx.generation > d.generation)
  and not exists (select 1 from job_records nr where nr.job_id = d.job_id and nr.state in ('done', 'cancelled')))`
