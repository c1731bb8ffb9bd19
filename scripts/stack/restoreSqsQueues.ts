import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'

export type RestoreSqsQueuesParameters = { dlqUrl: string }

/**
 * The embedded SQS endpoint keeps its queues in memory, while the stack's orders and jobs
 * survive a restart: after a restart (new, empty queues), the outbox rows of jobs not
 * finished are handed to the relay again (it sends them; the consumer is idempotent on
 * the order), and the dead letters the worker had listed are put back in the DLQ (their
 * rows are replaced by the next scan). Local stack only: SQS itself keeps its messages.
 */
export async function restoreSqsQueues(
  db: Db,
  client: SQSClient,
  p: RestoreSqsQueuesParameters,
): Promise<{ resent: number; deadLetters: number }> {
  const resent = await db.execute(sql`
    update sqs_outbox x set sent_at = null
    from job_records r
    where r.job_id = x.job_id and x.sent_at is not null and r.state in ('queued', 'retrying', 'running')
      and not exists (select 1 from sqs_dead_letters d where d.job_id = x.job_id)
    returning x.job_id`)
  const dead = await db.execute<{ message_id: string; body: string }>(
    sql`select message_id, body from sqs_dead_letters order by first_seen_at`,
  )
  for (let i = 0; i < dead.length; i += 10) {
    const batch = dead.slice(i, i + 10)
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: p.dlqUrl,
        Entries: batch.map((d, j) => ({ Id: String(j), MessageBody: d.body })),
      }),
    )
  }
  return { resent: resent.length, deadLetters: dead.length }
}
