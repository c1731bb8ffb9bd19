import { z } from 'zod'
import { JobAbortedError } from '@/lib/errors/jobs'
import { redactErrorInPlace } from '@/lib/errors/redactSecrets'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { withJobSpan } from '@/worker/telemetry/withJobSpan'
import type { UpdateJobRecordParameters } from '../db/updateJobRecord'
import { updateJobRecords } from '../db/updateJobRecords'
import type { WorkerContext } from '../runtime/context'
import type { WorkerLogger } from '../runtime/logger'
import { recordFailedAttempt } from '../runtime/recordFailedAttempt'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'
import { lockSqsJobGates, type SqsJobGate } from './lockSqsJobGates'
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

/**
 * What a message is owed before it runs, or null to run it: a message of an older generation
 * than its job's (the job was retried or cancelled since: another message carries it now) and
 * one of a finished job (sent twice) are deleted unrun; one of a dead job is left for SQS to
 * move to the dead-letter queue.
 */
function gateOf(gate: SqsJobGate, generation: number, log: WorkerLogger): SqsOutcome | null {
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

type Parsed<P> = {
  /** the message's place in the group */
  index: number
  delivery: SqsDelivery
  jobId: bigint
  generation: number
  payload: P
  orderId: string | null
  traceparent: string | undefined
  log: WorkerLogger
  base: { task: string; orderId: string | null; jobId: bigint; attempt: number; actor: string }
  record: Omit<UpdateJobRecordParameters, 'state' | 'lastError'>
}

/**
 * runTask's equivalent for the messages of one SQS group (a receive, or under a backlog a full receive and its
 * top-ups: startSqsConsumer; worker/runtime/runTask.ts), so an
 * SQS job leaves the same trail in job_records and job_events (the admin timeline), with SQS's
 * receive count as the attempt and maxReceiveCount as the attempts
 * (docs/decisions/065-sqs-batches.md):
 * - ONE transaction for the group: the jobs' history rows locked in id order, their gates read
 *   (lockSqsJobGates), then 'started' and job_records -> running for those that run, in one
 *   statement each; a job already done (the relay sent its row twice), and a message older than
 *   its job's generation (an admin retried or cancelled the job since,
 *   lib/web/queue/retrySqsJobs.ts): deleted, nothing run; a dead job's message: left for SQS to
 *   move to the DLQ. The admin's retry or cancel takes the same lock, so it either comes before
 *   (nothing run) or sees the job running;
 * - the tasks' runs together (the mint task hands every order to the send batcher in the same
 *   tick: they go out as one send batch);
 * - ONE transaction for the successes and waits: 'succeeded', done (the messages deleted), and
 *   a wait's job back to scheduled (nothing done: fee ceiling, signers at their in-flight bound;
 *   the message is sent again with a delay and the received one deleted, no receive spent);
 * - a failure: recordFailedAttempt per message, 'failed', then 'retrying' (the message visible
 *   again after the backoff) or, on the last receive or a permanent error, 'dead' with the order
 *   failed as a dead graphile job fails it; the message is then made visible at once and SQS's
 *   redrive policy, not this code, moves it to the DLQ (a dead job's later receives fail at once).
 * Two messages of one job in a group (the relay sent it twice, or SQS delivered it twice): the newest
 * generation's first one is worked, the others deleted unrun. The task's run() is the same as graphile-worker's
 * (idempotent on the order: the stored signed transaction), so a message worked twice still
 * mints once. Each run is a `job <task>` span of the mint's trace (withJobSpan, as runTask's
 * attempts). Returns each message's outcome, in the group's order.
 */
export function sqsMessageHandler<C extends SqsTaskContext, P>(
  ctx: C,
  def: SqsTask<C, P>,
  p: SqsMessageHandlerParameters,
) {
  const retryDelayS = p.retryDelayS ?? ((attempt: number) => Math.round(Math.exp(Math.min(attempt, 10))))
  const maxAttempts = p.maxReceiveCount
  return async (deliveries: SqsDelivery[]): Promise<SqsOutcome[]> => {
    const startedAt = performance.now()
    const actor = ctx.workerId()
    const outcomes: SqsOutcome[] = deliveries.map(() => ({ kind: 'release', afterS: 0 }))
    const byJob = new Map<bigint, Parsed<P>>()
    deliveries.forEach((delivery, index) => {
      const m = parseDelivery(ctx, def, { delivery, index, actor, maxAttempts })
      if (!m) return // invalid: released at once; SQS moves it to the DLQ after its receives, where an admin sees it
      const kept = byJob.get(m.jobId)
      if (kept && kept.generation >= m.generation) {
        m.log.info('sqs message of a job already in this group: deleted, nothing run')
        outcomes[index] = { kind: 'delete' }
        return
      }
      if (kept) {
        kept.log.info('sqs message of a job already in this group: deleted, nothing run')
        outcomes[kept.index] = { kind: 'delete' }
      }
      byJob.set(m.jobId, m)
    })
    if (byJob.size === 0) return outcomes

    const started = await ctx.db.transaction(async (tx) => {
      const gates = await lockSqsJobGates(tx, { jobIds: [...byJob.keys()] })
      const run: Parsed<P>[] = []
      for (const m of byJob.values()) {
        const gated = gateOf(gates.get(m.jobId) ?? { state: null, generation: 0 }, m.generation, m.log)
        if (gated) outcomes[m.index] = gated
        else run.push(m)
      }
      await updateJobRecords(
        tx,
        run.map((m) => ({ ...m.record, state: 'running' })),
      )
      await recordJobEvents(
        tx,
        run.map((m) => ({
          ...m.base,
          event: 'started',
          detail: `attempt ${m.base.attempt} of ${maxAttempts} (SQS receive ${m.base.attempt})`,
        })),
      )
      return run
    })
    if (started.length === 0) return outcomes
    ctx.log.info({ task: def.name, messages: deliveries.length, started: started.length }, 'sqs receive started')

    const results = await Promise.all(started.map((m) => runOne(ctx, def, { m, maxAttempts })))
    const durationMs = performance.now() - startedAt
    const succeeded = results.filter((r) => r.kind === 'done').map((r) => r.m)
    const waited = results.flatMap((r) => (r.kind === 'wait' ? [r] : []))
    await ctx.db.transaction(async (tx) => {
      await updateJobRecords(tx, [
        ...succeeded.map((m) => ({ ...m.record, state: 'done' as const, lastError: null })),
        // nothing done (fee ceiling, signers at their bound): a fresh message later, this receive not counted
        ...waited.map(({ m }) => ({ ...m.record, attempts: m.base.attempt - 1, state: 'scheduled' as const })),
      ])
      await recordJobEvents(
        tx,
        succeeded.map((m) => ({ ...m.base, event: 'succeeded', durationMs })),
      )
    })
    for (const m of succeeded) outcomes[m.index] = { kind: 'delete' }
    for (const { m, wait } of waited) {
      m.log.info({ retryInMs: wait.waitMs, reason: wait.reason }, 'sqs job waits: sent again later')
      outcomes[m.index] = { kind: 'requeue', afterS: wait.waitMs / 1000 }
    }
    await Promise.all(
      results.flatMap((r) =>
        r.kind === 'failed'
          ? [
              failOne(ctx, { m: r.m, error: r.error, durationMs, maxAttempts, retryDelayS }).then((o) => {
                outcomes[r.m.index] = o
              }),
            ]
          : [],
      ),
    )
    ctx.log.info(
      { task: def.name, done: succeeded.length, waits: waited.length, durationMs: Math.round(durationMs) },
      'sqs receive done',
    )
    return outcomes
  }
}

/** A message's envelope and payload, or null (logged) when its body is not a valid one. */
function parseDelivery<C extends SqsTaskContext, P>(
  ctx: C,
  def: SqsTask<C, P>,
  p: { delivery: SqsDelivery; index: number; actor: string; maxAttempts: number },
): Parsed<P> | null {
  const { delivery } = p
  const attempt = delivery.receiveCount
  let raw: unknown = null
  try {
    raw = JSON.parse(delivery.body)
  } catch {}
  const ids = envelope.safeParse(raw)
  const parsed = def.payload.safeParse(raw)
  const orderId = parsed.success ? (def.orderIdOf?.(parsed.data) ?? null) : null
  const log = ctx.log.child({
    workerId: p.actor,
    messageId: delivery.messageId,
    task: def.name,
    orderId,
    attempt,
    maxAttempts: p.maxAttempts,
  })
  if (!ids.success || !parsed.success) {
    log.error({ body: delivery.body.slice(0, 200) }, 'sqs message with an invalid body')
    return null
  }
  const jobId = BigInt(ids.data.jobId)
  return {
    index: p.index,
    delivery,
    jobId,
    generation: ids.data.generation ?? 0,
    payload: parsed.data,
    orderId,
    // the message's traceparent, else the one its body carries (else withJobSpan reads the order's first job's)
    traceparent: delivery.traceparent ?? (typeof ids.data.traceparent === 'string' ? ids.data.traceparent : undefined),
    log,
    base: { task: def.name, orderId, jobId, attempt, actor: p.actor },
    record: { jobId, task: def.name, orderId, payload: parsed.data, attempts: attempt, maxAttempts: p.maxAttempts },
  }
}

type RunResult<P> =
  | { kind: 'done'; m: Parsed<P> }
  | { kind: 'wait'; m: Parsed<P>; wait: { waitMs: number; reason: string } }
  | { kind: 'failed'; m: Parsed<P>; error: unknown }

/**
 * One message's task run, as a span of its mint's trace (job.pickup from the send on a first
 * receive; nothing when tracing is off, worker/telemetry/withJobSpan.ts). Never throws.
 */
async function runOne<C extends SqsTaskContext, P>(
  ctx: C,
  def: SqsTask<C, P>,
  { m, maxAttempts }: { m: Parsed<P>; maxAttempts: number },
): Promise<RunResult<P>> {
  const span = {
    db: ctx.db,
    task: def.name,
    jobId: m.jobId,
    attempt: m.base.attempt,
    orderId: m.orderId,
    payload: m.traceparent ? { traceparent: m.traceparent } : null,
    runAt: m.base.attempt === 1 ? m.delivery.sentAt : null,
  }
  try {
    return await withJobSpan(span, async (): Promise<RunResult<P>> => {
      const signal = m.delivery.signal
      const waited = await def.run(ctx, {
        payload: m.payload,
        jobId: m.jobId,
        attempt: m.base.attempt,
        maxAttempts,
        orderId: m.orderId,
        log: m.log,
        signal,
        actor: m.base.actor,
        checkpoint: (step) => {
          if (signal.aborted) throw new JobAbortedError(step)
        },
      })
      return waited ? { kind: 'wait', m, wait: waited } : { kind: 'done', m }
    })
  } catch (error) {
    return { kind: 'failed', m, error }
  }
}

/** A failed run's bookkeeping (recordFailedAttempt) and what becomes of its message. */
async function failOne<P>(
  ctx: SqsTaskContext,
  p: {
    m: Parsed<P>
    error: unknown
    durationMs: number
    maxAttempts: number
    retryDelayS: (attempt: number) => number
  },
): Promise<SqsOutcome> {
  const { m } = p
  const error = redactErrorInPlace(p.error)
  const aborted = error instanceof JobAbortedError
  const { dead } = await recordFailedAttempt(ctx, {
    base: m.base,
    record: m.record,
    maxAttempts: p.maxAttempts,
    error,
    durationMs: p.durationMs,
    unit: { handedBack: 'message', attempts: 'receives' },
    retryInS: aborted ? 0 : p.retryDelayS(m.base.attempt),
    note: { dead: '(SQS moves the message to the dead-letter queue)', retrying: '(SQS receive)' },
    log: m.log,
  })
  if (dead) m.log.error({ err: error, durationMs: p.durationMs }, 'sqs job dead')
  else m.log.warn({ err: error, durationMs: p.durationMs }, 'sqs job failed, will retry')
  return { kind: 'release', afterS: dead || aborted ? 0 : p.retryDelayS(m.base.attempt) }
}
