import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { traceAttributes } from './traceAttributes'

export type RelayOutboxParameters = {
  queueUrl: string
  /** rows per pass (default and most 50): SendMessageBatch calls of up to 10, sent together */
  limit?: number
  /** TEST ONLY: runs after SQS accepted the batch, before the rows are stamped sent */
  afterSend?: () => void
}

/** the rows of one pass at most: five SendMessageBatch calls of 10 */
export const RELAY_PASS_ROWS = 50

type Mark = { job_id: string; message_id: string | null; error: string | null }

/**
 * One pass of the outbox relay: the oldest unsent rows of sqs_outbox (up to 50),
 * locked (SKIP LOCKED: two workers' relays never take one row), sent by SendMessageBatch
 * calls of up to 10 issued together, and all stamped by ONE update: `sent_at` with SQS's message id,
 * or the error of an entry SQS refused or of a call that failed (left unsent for the next pass), in
 * one transaction: four statements per pass of up to 50 rows. A crash after the send and before the
 * commit leaves them unsent: they are sent again (at least once), and the consumer is idempotent on
 * the order. A row's `traceparent` (the mint's
 * trace) also goes as the message attribute `traceparent` (String), where the
 * consumer reads it. A row an admin retried or cancelled (lib/web/queue/retrySqsJobs.ts)
 * has a generation above 0, written into the body as `generation`: a message of an older
 * generation is stale (worker/sqs/sqsMessageHandler.ts, scanDeadLetterQueue.ts). Returns
 * how many were sent; a call that failed is thrown once the others' rows are stamped.
 */
export async function relayOutbox(db: Db, client: SQSClient, p: RelayOutboxParameters): Promise<number> {
  const limit = Math.min(p.limit ?? RELAY_PASS_ROWS, RELAY_PASS_ROWS)
  let failure: unknown = null
  const sent = await db.transaction(async (tx) => {
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
    const chunks: (typeof rows)[number][][] = []
    for (let i = 0; i < rows.length; i += 10) chunks.push(rows.slice(i, i + 10))
    const results = await Promise.allSettled(
      chunks.map((chunk) =>
        client.send(
          new SendMessageBatchCommand({
            QueueUrl: p.queueUrl,
            Entries: chunk.map((r) => ({
              Id: r.job_id,
              MessageBody: JSON.stringify(r.payload),
              MessageAttributes: traceAttributes(r.traceparent),
            })),
          }),
        ),
      ),
    )
    p.afterSend?.()
    // every row of the pass stamped in ONE statement: the sent ones with their message id, the refused ones
    // with SQS's error and those of a failed call with its error (left unsent: the next pass sends them again)
    const marks: Mark[] = results.flatMap((result, i): Mark[] => {
      if (result.status === 'rejected') {
        failure ??= result.reason
        const error = result.reason instanceof Error ? `${result.reason.name}: ${result.reason.message}` : 'send failed'
        return (chunks[i] ?? []).map((r) => ({ job_id: r.job_id, message_id: null, error }))
      }
      return [
        ...(result.value.Successful ?? []).map((ok) => ({
          job_id: ok.Id ?? '',
          message_id: ok.MessageId ?? null,
          error: null,
        })),
        ...(result.value.Failed ?? []).map((f) => ({
          job_id: f.Id ?? '',
          message_id: null,
          error: `${f.Code}: ${f.Message ?? ''}`,
        })),
      ]
    })
    if (marks.length > 0)
      await tx.execute(sql`
        update sqs_outbox x
        set sent_at = case when v.error is null then now() else x.sent_at end,
          message_id = case when v.error is null then v.message_id else x.message_id end,
          sends = x.sends + 1, last_send_error = v.error
        from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) as v(job_id bigint, message_id text, error text)
        where x.job_id = v.job_id`)
    return marks.filter((m) => m.error === null).length
  })
  if (failure !== null) throw failure
  return sent
}
