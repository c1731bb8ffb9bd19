import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/**
 * The timeline the admin pages show. graphile-worker deletes finished jobs, so every
 * step of every job (enqueued, started, signed, broadcast, errors, retries, ...) is
 * kept here, with run times for the metrics.
 */
export const jobEvents = pgTable(
  'job_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    orderId: uuid('order_id'),
    jobId: bigint('job_id', { mode: 'bigint' }),
    task: text('task').notNull(),
    event: text('event').notNull(),
    attempt: integer('attempt'),
    detail: text('detail'),
    /** error message and stack, for failures */
    error: text('error'),
    /** who did it: a worker id, or an admin's email */
    actor: text('actor'),
    /** run time of the attempt, on 'succeeded' and 'failed' events */
    durationMs: integer('duration_ms'),
    data: jsonb('data'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('job_events_order_idx').on(t.orderId, t.at),
    index('job_events_job_idx').on(t.jobId, t.at),
    index('job_events_task_at_idx').on(t.task, t.at),
    // admin metrics: attempts, failures and throughput over the last hour, across tasks
    index('job_events_event_at_idx').on(t.event, t.at),
    // admin search in error text (pg_trgm, created by the migration); only failures carry an error
    index('job_events_error_trgm_idx').using('gin', t.error.op('gin_trgm_ops')).where(sql`${t.error} is not null`),
    // the same search, newest jobs first: only the events that carry an error, in job order
    index('job_events_errored_job_idx').on(t.jobId).where(sql`${t.error} is not null and ${t.jobId} is not null`),
  ],
)

/**
 * One row per graphile-worker job, kept after graphile-worker deletes it, so the
 * admin can list done and cancelled jobs and their history.
 */
export const jobRecords = pgTable(
  'job_records',
  {
    jobId: bigint('job_id', { mode: 'bigint' }).primaryKey(),
    task: text('task').notNull(),
    orderId: uuid('order_id'),
    /** last known state: queued, running, retrying, dead, done, cancelled */
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    lastError: text('last_error'),
    payload: jsonb('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('job_records_state_idx').on(t.state, t.jobId.desc()),
    index('job_records_task_state_idx').on(t.task, t.state, t.jobId.desc()),
    index('job_records_order_idx').on(t.orderId),
    // admin jobs list: one task, newest first, any state
    index('job_records_task_job_idx').on(t.task, t.jobId.desc()),
    // admin search in the last error (pg_trgm, created by the migration)
    index('job_records_last_error_trgm_idx')
      .using('gin', t.lastError.op('gin_trgm_ops'))
      .where(sql`${t.lastError} is not null`),
    // the same search, newest jobs first: only the records that carry an error, in job order
    index('job_records_errored_idx').on(t.jobId).where(sql`${t.lastError} is not null`),
  ],
)

/** Worker heartbeats: a worker silent past the threshold has its jobs unlocked. */
export const workers = pgTable('workers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
})

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    detail: jsonb('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The hash chain (docs/decisions/060-audit-hash-chain.md), set by the trigger audit_log_chain in the row's
     * transaction, never by the caller (NOT NULL in the database): the row's place in the chain, the previous row's
     * hash, and this row's: sha256 over the previous hash and the row (lib/audit/auditRowHash.ts)
     */
    chainSeq: bigint('chain_seq', { mode: 'bigint' }),
    prevHash: text('prev_hash'),
    rowHash: text('row_hash'),
  },
  (t) => [index('audit_log_at_idx').on(t.at), uniqueIndex('audit_log_chain_seq_key').on(t.chainSeq)],
)
