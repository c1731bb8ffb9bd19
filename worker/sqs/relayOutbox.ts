import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { traceAttributes } from './traceAttributes'

export type RelayOutboxParameters = {
  queueUrl: string
  /** rows per pass; SendMessageBatch takes at most 10 */
  limit?: number
  /** TEST ONLY: runs after SQS accepted the batch, before the rows are stamped sent */
  afterSend?: () => void
}

/**
 * One pass of the outbox relay: the oldest unsent rows of sqs_outbox,
 * locked (SKIP LOCKED: two workers' relays never take one row), sent with one
 * SendMessageBatch, stamped `sent_at` with SQS's message id, in one transaction. A crash
 * after the send and before the commit leaves them unsent: they are sent again (at least
 * once), and the consumer is idempotent on the order. A row's `traceparent` (the mint's
 * trace) also goes as the message attribute `traceparent` (String), where the
 * consumer reads it. A row an admin retried or cancelled (lib/web/queue/retrySqsJobs.ts)
 * has a generation above 0, written into the body as `generation`: a message of an older
 * generation is stale (worker/sqs/sqsMessageHandler.ts, scanDeadLetterQueue.ts). Returns
 * how many were sent.
 */
export async function relayOutbox(db: Db, client: SQSClient, p: RelayOutboxParameters): Promise<number> {
  const limit = Math.min(p.limit ?? 10, 10)
  return db.transaction(async (tx) => {
    // a retried job's row says its generation in the body: the messages of older ones are stale
    const rows = await tx.execute<{ job_id: string; payload: unknown; traceparent: string | null }>(sql`
      select job_id::text as job_id,
        case when generation > 0 then payload || jsonb_build_object('generation', generation) else payload end as payload,
        payload->>'traceparent' as traceparent
      from sqs_outbox
      where sent_at is null
      order by job_id
      limit ${limit}
      for update skip locked`)
    if (rows.length === 0) return 0
    const result = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: p.queueUrl,
        Entries: rows.map((r) => ({
          Id: r.job_id,
          MessageBody: JSON.stringify(r.payload),
          MessageAttributes: traceAttributes(r.traceparent),
        })),
      }),
    )
    p.afterSend?.()
    for (const ok of result.Successful ?? []) {
      await tx.execute(sql`
        update sqs_outbox set sent_at = now(), message_id = ${ok.MessageId ?? null}, sends = sends + 1, last_send_error = null
        where job_id = ${ok.Id}::bigint`)
    }
    for (const failed of result.Failed ?? []) {
      await tx.execute(sql`
        update sqs_outbox set sends = sends + 1, last_send_error = ${`${failed.Code}: ${failed.Message ?? ''}`}
        where job_id = ${failed.Id}::bigint`)
    }
    return result.Successful?.length ?? 0
  })
}
