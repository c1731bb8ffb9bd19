import { sql } from 'drizzle-orm'
import { z } from 'zod'
import type { DbOrTx } from '@/db/client'
import { JobAbortedError } from '@/lib/errors/jobs'
import { redactErrorInPlace } from '@/lib/errors/redactSecrets'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { withJobSpan } from '@/worker/telemetry/withJobSpan'
import { updateJobRecord } from '../db/updateJobRecord'
import type { WorkerContext } from '../runtime/context'
import type { WorkerLogger } from '../runtime/logger'
import { recordFailedAttempt } from '../runtime/recordFailedAttempt'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'
import type { SqsDelivery, SqsOutcome } from './startSqsConsumer'

/**
 * The message body the outbox writes (public.enqueue_job): the task's payload plus its job
 * id, and its generation once an admin retried or cancelled the job (worker/sqs/relayOutbox.ts).
 */
const envelope = z
  .object({ jobId: z.string().regex(/^\d{1,19}$/), generation: z.number().int().nonnegative().optional() })
  .passthrough()

/** What the handler itself uses of the worker's context; the task gets the whole of it. */
export type SqsTaskContext = Pick<WorkerContext, 'db' | 'log' | 'workerId'>

type JobGate = { state: string | null; generation: number }

/**
 * The job's state in its history and its outbox row's generation (0 without one). `lock`:
 * its job_records row FOR UPDATE first (the lock an admin's retry or cancel takes), then both
 * read by a statement of their own, so they are what that retry or cancel committed.
 */
async function readJobGate(db: DbOrTx, p: { jobId: bigint; lock: boolean }): Promise<JobGate> {
  if (p.lock) await db.execute(sql`select 1 from job_records where job_id = ${p.jobId}::bigint for update`)
  const [row] = await db.execute<{ state: string | null; generation: number | null }>(sql`
    select (select r.state from job_records r where r.job_id = ${p.jobId}::bigint) as state,
      (select x.generation from sqs_outbox x where x.job_id = ${p.jobId}::bigint) as generation`)
  return { state: row?.state ?? null, generation: Number(row?.generation ?? 0) }
}

/**
 * What a message is owed before it runs, or null to run it: a message of an older generation
 * than its job's (the job was retried or cancelled since: another message carries it now) and
 * one of a finished job (sent twice) are deleted unrun; one of a dead job is left for SQS to
 * move to the dead-letter queue.
 */
function gateOf(gate: JobGate, generation: number, log: WorkerLogger): SqsOutcome | null {
  if (generation < gate.generation) {
    log.info(
      { generation, current: gate.generation },
      'sqs message of an older generation (its job was retried or cancelled since): deleted, nothing run',
    )
    return { kind: 'delete' }
  }
  if (gate.state === 'done' || gate.state === 'cancelled') {
    log.info({ state: gate.state }, 'sqs message of a finished job (sent twice): deleted, nothing run')
    return { kind: 'delete' }
  }
  if (gate.state === 'dead') {
    log.warn('sqs message of a dead job: left for SQS to move to the dead-letter queue')
    return { kind: 'release', afterS: 0 }
  }
  return null
}

/** A task as graphile-worker runs it (TaskDefinition), over the context it needs. */
export type SqsTask<C extends SqsTaskContext, P> = Pick<TaskDefinition<P>, 'name' | 'payload' | 'orderIdOf'> & {
  /** resolves with waitMs when nothing was done and the message should come back later without spending a receive */
  /* biome-ignore lint/suspicious/noConfusingVoidType: a task that did its work returns nothing;
     one that waits says how long */
  run: (ctx: C, job: TaskRun<P>) => Promise<void | { waitMs: number; reason: string }>
}

export type SqsMessageHandlerParameters = {
  /** the queue's redrive policy maxReceiveCount: the receive that is the last attempt */
  maxReceiveCount: number
  /** seconds before a failed message is received again (its backoff); graphile-worker's exp(attempt) by default */
  retryDelayS?: (attempt: number) => number
}

/**
 * runTask's equivalent for an SQS message (worker/runtime/runTask.ts), so an SQS job leaves
 * the same trail in job_records and job_events (the admin timeline), with SQS's receive
 * count as the attempt and maxReceiveCount as the attempts:
 * - 'started', job_records -> running; success: 'succeeded', done, the message deleted;
 * - failure: 'failed', then 'retrying' (the message visible again after the backoff) or,
 *   on the last receive or a permanent error, 'dead' with the order failed as a dead
 *   graphile job fails it; the message is then made visible at once and SQS's redrive
 *   policy, not this code, moves it to the DLQ (a dead job's later receives fail at once);
 * - a task that waits (nothing signed: fee ceiling, signers at their in-flight bound): the
 *   message is sent again with a delay and the received one deleted (no receive spent);
 * - a job already done (the relay sent its row twice), and a message older than its job's
 *   generation (an admin retried or cancelled the job since, lib/web/queue/retrySqsJobs.ts):
 *   deleted, nothing run; checked again under the job's row lock as it starts, so a retry
 *   or cancel committed meanwhile is seen.
 * The task's run() is the same as graphile-worker's (idempotent on the order: the stored
 * signed transaction), so a message worked twice still mints once. Each receive that runs
 * is a `job <task>` span of the mint's trace (withJobSpan, as runTask's attempts).
 */
export function sqsMessageHandler<C extends SqsTaskContext, P>(
  ctx: C,
  def: SqsTask<C, P>,
  p: SqsMessageHandlerParameters,
) {
  const retryDelayS = p.retryDelayS ?? ((attempt: number) => Math.round(Math.exp(Math.min(attempt, 10))))
  return async (delivery: SqsDelivery): Promise<SqsOutcome> => {
    const startedAt = performance.now()
    const attempt = delivery.receiveCount
    const maxAttempts = p.maxReceiveCount
    let raw: unknown = null
    try {
      raw = JSON.parse(delivery.body)
    } catch {}
    const ids = envelope.safeParse(raw)
    const parsed = def.payload.safeParse(raw)
    const orderId = parsed.success ? (def.orderIdOf?.(parsed.data) ?? null) : null
    const actor = ctx.workerId()
    const log = ctx.log.child({
      workerId: actor,
      messageId: delivery.messageId,
      task: def.name,
      orderId,
      attempt,
      maxAttempts,
    })
    if (!ids.success || !parsed.success) {
      // nothing to record it against: SQS moves it to the DLQ after its receives, where an admin sees it
      log.error({ body: delivery.body.slice(0, 200) }, 'sqs message with an invalid body')
      return { kind: 'release', afterS: 0 }
    }
    const jobId = BigInt(ids.data.jobId)
    const base = { task: def.name, orderId, jobId, attempt, actor }
    const record = { jobId, task: def.name, orderId, payload: parsed.data, attempts: attempt, maxAttempts }

    const generation = ids.data.generation ?? 0
    const early = gateOf(await readJobGate(ctx.db, { jobId, lock: false }), generation, log)
    if (early) return early

    // the attempt as a span of its mint's trace: the message's traceparent, else the order's first job's;
    // job.pickup from the send on a first receive. Nothing when tracing is off (worker/telemetry/withJobSpan.ts)
    const traceparent =
      delivery.traceparent ?? (typeof ids.data.traceparent === 'string' ? ids.data.traceparent : undefined)
    const span = {
      db: ctx.db,
      task: def.name,
      jobId,
      attempt,
      orderId,
      payload: traceparent ? { traceparent } : null,
      runAt: attempt === 1 ? delivery.sentAt : null,
    }
    return withJobSpan(span, async (): Promise<SqsOutcome> => {
      // the gate again under the job's row lock, in the transaction that marks it running: an admin's
      // retry or cancel (which takes the same lock) either comes before (nothing run) or sees it running
      const gated = await ctx.db.transaction(async (tx) => {
        const late = gateOf(await readJobGate(tx, { jobId, lock: true }), generation, log)
        if (late) return late
        await updateJobRecord(tx, { ...record, state: 'running' })
        await recordJobEvent(tx, {
          ...base,
          event: 'started',
          detail: `attempt ${attempt} of ${maxAttempts} (SQS receive ${attempt})`,
        })
        return null
      })
      if (gated) return gated
      log.info('sqs job started')

      let waited: { waitMs: number; reason: string } | undefined
      try {
        waited =
          (await def.run(ctx, {
            payload: parsed.data,
            jobId,
            attempt,
            maxAttempts,
            orderId,
            log,
            signal: delivery.signal,
            actor,
            checkpoint: (step) => {
              if (delivery.signal.aborted) throw new JobAbortedError(step)
            },
          })) ?? undefined
      } catch (thrown) {
        const error = redactErrorInPlace(thrown)
        const durationMs = performance.now() - startedAt
        const aborted = error instanceof JobAbortedError
        const { dead } = await recordFailedAttempt(ctx, {
          base,
          record,
          maxAttempts,
          error,
          durationMs,
          unit: { handedBack: 'message', attempts: 'receives' },
          retryInS: aborted ? 0 : retryDelayS(attempt),
          note: { dead: '(SQS moves the message to the dead-letter queue)', retrying: '(SQS receive)' },
          log,
        })
        if (dead) log.error({ err: error, durationMs }, 'sqs job dead')
        else log.warn({ err: error, durationMs }, 'sqs job failed, will retry')
        return { kind: 'release', afterS: dead || aborted ? 0 : retryDelayS(attempt) }
      }

      if (waited) {
        // nothing done (fee ceiling, signers at their bound): a fresh message later, this receive not counted
        await updateJobRecord(ctx.db, { ...record, attempts: attempt - 1, state: 'scheduled' })
        log.info({ retryInMs: waited.waitMs, reason: waited.reason }, 'sqs job waits: sent again later')
        return { kind: 'requeue', afterS: waited.waitMs / 1000 }
      }
      const durationMs = performance.now() - startedAt
      await ctx.db.transaction(async (tx) => {
        await updateJobRecord(tx, { ...record, state: 'done', lastError: null })
        await recordJobEvent(tx, { ...base, event: 'succeeded', durationMs })
      })
      log.info({ durationMs }, 'sqs job succeeded')
      return { kind: 'delete' }
    })
  }
}
