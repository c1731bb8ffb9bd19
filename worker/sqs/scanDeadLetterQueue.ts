import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { traceAttributes } from './traceAttributes'

export type ScanDeadLetterQueueParameters = {
  queueUrl: string
  dlqUrl: string
  /** messages read per scan at most; the rest wait for the next scan */
  maxMessages?: number
}

export type ScanDeadLetterQueueReturnType = {
  listed: number
  moved: number
  /** deleted from the DLQ: a message its job no longer needs (retried or cancelled since, or done) */
  dropped: number
  complete: boolean
} | null

/**
 * The worker's look at the dead-letter queue, so the admin page needs no
 * SQS rights: every message is received for a moment (30 s hidden), recorded in
 * sqs_dead_letters with its job's receive count, and made visible again at once (the DLQ
 * depth and its CloudWatch alarm stay true). A message its job no longer needs is deleted
 * from the DLQ with its row (dropped): one of an older generation than its job's (an admin
 * retried or cancelled the job since, from the jobs page or the DLQ page: the relay sends
 * the retried job's new message, lib/web/queue/retrySqsJobs.ts) and one of a job that is
 * done or cancelled; so a job retried in one place is never run again from the other. A
 * message stamped for a retry (retry_requested_at) by a web from before generations is
 * moved back instead: sent to the queue, then deleted from the DLQ (a crash between sends
 * it twice at worst: the consumer is idempotent), its row removed. After a scan that saw
 * the whole DLQ, rows of messages no longer there go (except those waiting for their retry).
 * One scanner at a time across workers (a transaction-scoped advisory lock); null when
 * another worker holds it.
 */
export async function scanDeadLetterQueue(
  db: Db,
  client: SQSClient,
  p: ScanDeadLetterQueueParameters,
): Promise<ScanDeadLetterQueueReturnType> {
  const maxMessages = p.maxMessages ?? 200
  return db.transaction(async (tx) => {
    const [lock] = await tx.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtextextended('mintdesk.sqs_dlq_scan', 0)) as ok`,
    )
    if (!lock?.ok) return null
    const [scan] = await tx.execute<{ started: string }>(sql`select clock_timestamp()::text as started`)
    const held: Message[] = []
    let listed = 0
    let moved = 0
    let dropped = 0
    let complete = false
    try {
      while (listed + moved + dropped < maxMessages) {
        const received = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: p.dlqUrl,
            MaxNumberOfMessages: 10,
            // a long poll asks every SQS server: a short one may answer empty while messages wait
            WaitTimeSeconds: 1,
            VisibilityTimeout: 30,
            MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
            MessageAttributeNames: ['traceparent'],
          }),
        )
        const messages = received.Messages ?? []
        if (messages.length === 0) {
          complete = true
          break
        }
        for (const m of messages) {
          if (!m.MessageId || !m.ReceiptHandle) continue
          const body = m.Body ?? ''
          const ids = idsOf(body)
          const [job] = await tx.execute<{ state: string | null; generation: number | null }>(sql`
            select (select state from job_records where job_id = ${ids.jobId}::bigint) as state,
              (select generation from sqs_outbox where job_id = ${ids.jobId}::bigint) as generation`)
          const finished = job?.state === 'done' || job?.state === 'cancelled'
          if (ids.jobId !== null && (finished || ids.generation < Number(job?.generation ?? 0))) {
            await client.send(new DeleteMessageCommand({ QueueUrl: p.dlqUrl, ReceiptHandle: m.ReceiptHandle }))
            await tx.execute(sql`delete from sqs_dead_letters where message_id = ${m.MessageId}`)
            dropped++
            continue
          }
          const [row] = await tx.execute<{ retry: boolean }>(sql`
            select retry_requested_at is not null as retry from sqs_dead_letters where message_id = ${m.MessageId}`)
          if (row?.retry) {
            // the mint's trace goes back with it
            await client.send(
              new SendMessageCommand({
                QueueUrl: p.queueUrl,
                MessageBody: body,
                MessageAttributes: traceAttributes(m.MessageAttributes?.traceparent?.StringValue),
              }),
            )
            await client.send(new DeleteMessageCommand({ QueueUrl: p.dlqUrl, ReceiptHandle: m.ReceiptHandle }))
            await tx.execute(sql`delete from sqs_dead_letters where message_id = ${m.MessageId}`)
            moved++
            continue
          }
          const sentAt = m.Attributes?.SentTimestamp ? new Date(Number(m.Attributes.SentTimestamp)).toISOString() : null
          await tx.execute(sql`
            insert into sqs_dead_letters (message_id, job_id, order_id, body, receive_count, sent_at, last_seen_at, generation)
            values (${m.MessageId}, ${ids.jobId}::bigint, ${ids.orderId}::uuid, ${body},
              coalesce((select attempts from job_records where job_id = ${ids.jobId}::bigint), 0), ${sentAt}::timestamptz, clock_timestamp(),
              ${ids.generation})
            on conflict (message_id) do update set last_seen_at = clock_timestamp(),
              receive_count = greatest(sqs_dead_letters.receive_count, excluded.receive_count)`)
          held.push(m)
          listed++
        }
      }
    } finally {
      for (let i = 0; i < held.length; i += 10) {
        const batch = held.slice(i, i + 10)
        await client
          .send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: p.dlqUrl,
              Entries: batch.map((m, j) => ({
                Id: String(j),
                ReceiptHandle: m.ReceiptHandle ?? '',
                VisibilityTimeout: 0,
              })),
            }),
          )
          .catch(() => {})
      }
    }
    if (complete) {
      const started = scan?.started ?? 'now'
      // a row waiting for its retry stays until its message is moved (an empty answer is never proof it is gone)
      await tx.execute(
        sql`delete from sqs_dead_letters where last_seen_at < ${started}::timestamptz and retry_requested_at is null`,
      )
    }
    return { listed, moved, dropped, complete }
  })
}

/** the body's job, order and generation (0 when it has none, as before any retry) */
function idsOf(body: string): { jobId: string | null; orderId: string | null; generation: number } {
  const none = { jobId: null, orderId: null, generation: 0 }
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== 'object' || parsed === null) return none
    const o = parsed as Record<string, unknown>
    const jobId = typeof o.jobId === 'string' && /^\d{1,19}$/.test(o.jobId) ? o.jobId : null
    const orderId = typeof o.orderId === 'string' && /^[0-9a-f-]{36}$/i.test(o.orderId) ? o.orderId : null
    const generation =
      typeof o.generation === 'number' && Number.isSafeInteger(o.generation) && o.generation >= 0 ? o.generation : 0
    return { jobId, orderId, generation }
  } catch {
    return none
  }
}
