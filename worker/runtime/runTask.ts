import type { JobHelpers, Task } from 'graphile-worker'
import type { z } from 'zod'
import { InvalidPayloadError, JobAbortedError } from '@/lib/errors/jobs'
import { redactErrorInPlace } from '@/lib/errors/redactSecrets'
import { endAttemptsNow } from '@/lib/jobs/endAttemptsNow'
import { isHousekeepingTask } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { withJobSpan } from '@/worker/telemetry/withJobSpan'
import { updateJobRecord } from '../db/updateJobRecord'
import type { WorkerContext } from './context'
import type { WorkerLogger } from './logger'
import { recordFailedAttempt } from './recordFailedAttempt'

/** What a task's run() gets besides the worker context. */
export type TaskRun<P> = {
  payload: P
  jobId: bigint
  /** this attempt, 1-based */
  attempt: number
  maxAttempts: number
  orderId: string | null
  log: WorkerLogger
  /** aborts when the worker shuts down */
  signal: AbortSignal
  /** the actor of this job's events: the worker id */
  actor: string
  /** throws JobAbortedError if the worker is shutting down; call it between steps that can be resumed */
  checkpoint: (step: string) => void
}

export type TaskDefinition<P> = {
  name: string
  /** the payload, declared once and checked at run time (a queued payload may come from older code) */
  payload: z.ZodType<P>
  orderIdOf?: (payload: P) => string | null
  run: (ctx: WorkerContext, job: TaskRun<P>) => Promise<void>
}

/**
 * THE wrapper every task runs through, so every job leaves the same trail:
 * - 'started' (attempt n of max), job_records -> running;
 * - success: 'succeeded' with its run time, job_records -> done;
 * - failure: 'failed' with message, stack and run time, then 'retrying' (attempts left,
 *   graphile-worker's exponential backoff) or 'dead' (last attempt, or a
 *   PermanentJobError, whose job gets max_attempts = attempts so graphile-worker keeps it
 *   as a dead letter); a dead mint_send fails its order with the reason.
 * The error is rethrown so graphile-worker records it too, its message and stack redacted
 * first (lib/errors/redactSecrets.ts: an RPC URL in a viem error carries the provider's API
 * key; graphile stores the message as last_error). The run times feed the admin
 * metrics (p50/p95 per task from job_events.duration_ms). A housekeeping task's start and success
 * (lib/jobs/jobKeys HOUSEKEEPING_TASKS: nonce_health every few seconds) are logged at debug, its
 * failures at warn and error as every task's.
 */
export function runTask<P>(ctx: WorkerContext, def: TaskDefinition<P>): Task {
  return async (rawPayload: unknown, helpers: JobHelpers): Promise<void> => {
    const { job } = helpers
    // the attempt as a span of its mint's trace (worker/telemetry/withJobSpan.ts; nothing when tracing is off)
    const span = {
      db: ctx.db,
      task: def.name,
      jobId: job.id,
      attempt: job.attempts,
      orderId: orderIdIn(rawPayload),
      payload: rawPayload,
      runAt: job.run_at,
    }
    await withJobSpan(span, () => runAttempt(ctx, def, rawPayload, helpers))
  }
}

async function runAttempt<P>(
  ctx: WorkerContext,
  def: TaskDefinition<P>,
  rawPayload: unknown,
  helpers: JobHelpers,
): Promise<void> {
  const startedAt = performance.now()
  const { job } = helpers
  const jobId = BigInt(job.id)
  const attempt = job.attempts
  const maxAttempts = job.max_attempts
  const parsed = def.payload.safeParse(rawPayload)
  const orderId = parsed.success ? (def.orderIdOf?.(parsed.data) ?? null) : orderIdIn(rawPayload)
  const actor = ctx.workerId()
  const log = ctx.log.child({ workerId: actor, jobId: job.id, task: def.name, orderId, attempt, maxAttempts })
  const base = { task: def.name, orderId, jobId, attempt, actor }
  const record = { jobId, task: def.name, orderId, payload: rawPayload, attempts: attempt, maxAttempts }
  const routine = isHousekeepingTask(def.name) ? 'debug' : 'info'

  // the two writes pipelined: one round trip between BEGIN and COMMIT
  await ctx.db.transaction(async (tx) => {
    await Promise.all([
      updateJobRecord(tx, { ...record, state: 'running' }),
      recordJobEvent(tx, { ...base, event: 'started', detail: `attempt ${attempt} of ${maxAttempts}` }),
    ])
  })
  log[routine]('job started')

  try {
    if (!parsed.success) throw new InvalidPayloadError(`invalid ${def.name} payload: ${parsed.error.message}`)
    const signal = helpers.abortSignal ?? new AbortController().signal
    await def.run(ctx, {
      payload: parsed.data,
      jobId,
      attempt,
      maxAttempts,
      orderId,
      log,
      signal,
      actor,
      checkpoint: (step) => {
        if (signal.aborted) throw new JobAbortedError(step)
      },
    })
  } catch (thrown) {
    const error = redactErrorInPlace(thrown)
    const durationMs = performance.now() - startedAt
    const { dead } = await recordFailedAttempt(ctx, {
      base,
      record,
      maxAttempts,
      error,
      durationMs,
      unit: { handedBack: 'job', attempts: 'attempts' },
      retryInS: Math.round(Math.exp(Math.min(attempt, 10))),
      // a permanent error ends the job's attempts now, so graphile-worker keeps it as a dead letter
      before: async (tx, { permanent }) => {
        if (permanent && attempt < maxAttempts) await endAttemptsNow(tx, { jobId })
      },
      log,
    })
    if (dead) log.error({ err: error, durationMs }, 'job dead')
    else log.warn({ err: error, durationMs }, 'job failed, will retry')
    throw error
  }

  const durationMs = performance.now() - startedAt
  await ctx.db.transaction(async (tx) => {
    await Promise.all([
      updateJobRecord(tx, { ...record, state: 'done', lastError: null }),
      recordJobEvent(tx, { ...base, event: 'succeeded', durationMs }),
    ])
  })
  log[routine]({ durationMs }, 'job succeeded')
}

function orderIdIn(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || !('orderId' in payload)) return null
  const { orderId } = payload
  return typeof orderId === 'string' && /^[0-9a-f-]{36}$/i.test(orderId) ? orderId : null
}
