import { sql } from 'drizzle-orm'
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * The SQS transport's outbox. With QUEUE_TRANSPORT=sqs the order's
 * transaction (intake or approval) writes one row here instead of a graphile-worker job
 * (public.enqueue_job, the one enqueue, db/functions/enqueue_job.sql): the order and its
 * message commit together or not at all.
 * The worker's relay sends unsent rows to SQS and stamps `sent_at`; a crash between the
 * send and the stamp sends the row twice at worst, and the consumer is idempotent on the
 * order (the stored signed transaction). `job_id` is drawn from graphile-worker's job id
 * sequence, so an SQS job and a graphile job never share a job_records row.
 */
export const sqsOutbox = pgTable(
  'sqs_outbox',
  {
    jobId: bigint('job_id', { mode: 'bigint' }).primaryKey(),
    task: text('task').notNull(),
    orderId: uuid('order_id').notNull(),
    /** the message body, as the consumer parses it ({ orderId, jobId }) */
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** set by the relay once SQS accepted the message; null: still to send */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** SQS's id of the last message sent for this row */
    messageId: text('message_id'),
    sends: integer('sends').notNull().default(0),
    lastSendError: text('last_send_error'),
    /**
     * Bumped by every retry or cancel of the job (lib/web/queue/retrySqsJobs.ts): the relay
     * writes it into the message body (`generation`, when above 0), and a message of an
     * older generation is stale wherever it is: the consumer deletes it unrun, the DLQ scan
     * drops it, the DLQ page refuses to retry it. One job, one live message.
     */
    generation: integer('generation').notNull().default(0),
  },
  (t) => [
    // the relay's scan: unsent rows, oldest first
    index('sqs_outbox_unsent_idx').on(t.jobId).where(sql`${t.sentAt} is null`),
    index('sqs_outbox_order_idx').on(t.orderId),
  ],
)

/**
 * What the dead-letter queue holds, as the worker last listed it (listDeadLetterQueue,
 * every SQS_DLQ_SCAN_MS): the admin page reads this table, so the web needs no SQS rights.
 * An admin's retry stamps `retry_requested_at`; the worker then moves that message back to
 * the queue (send, then delete from the DLQ) and removes the row.
 */
export const sqsDeadLetters = pgTable(
  'sqs_dead_letters',
  {
    messageId: text('message_id').primaryKey(),
    jobId: bigint('job_id', { mode: 'bigint' }),
    orderId: uuid('order_id'),
    body: text('body').notNull(),
    /** receives of the message on the main queue when it was moved (job_records.attempts) */
    receiveCount: integer('receive_count').notNull(),
    /** when SQS first put it on the queue (SentTimestamp) */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    retryRequestedAt: timestamp('retry_requested_at', { withTimezone: true }),
    retryRequestedBy: text('retry_requested_by'),
    /** the message's generation (its body's, 0 when it has none): below its outbox row's, it is stale */
    generation: integer('generation').notNull().default(0),
  },
  (t) => [index('sqs_dead_letters_job_idx').on(t.jobId)],
)
