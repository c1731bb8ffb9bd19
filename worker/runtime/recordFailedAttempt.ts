import type { Tx } from '@/db/client'
import { type FailureReason, isPermanentJobError, JobAbortedError } from '@/lib/errors/jobs'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { failOrderOfDeadJob } from '../db/failOrderOfDeadJob'
import { type UpdateJobRecordParameters, updateJobRecord } from '../db/updateJobRecord'
import type { WorkerContext } from './context'
import { failureReasonOf } from './failureReasonOf'
import type { WorkerLogger } from './logger'

export type RecordFailedAttemptParameters = {
  /** the attempt's timeline fields */
  base: { task: string; orderId: string | null; jobId: bigint; attempt: number; actor: string }
  /** its job_records row (its state and last error are set here) */
  record: Omit<UpdateJobRecordParameters, 'state' | 'lastError'>
  maxAttempts: number
  /** what failed, already redacted */
  error: unknown
  durationMs: number
  /** the transport's words: 'job' / 'attempts' (graphile-worker) or 'message' / 'receives' (SQS) */
  unit: { handedBack: string; attempts: string }
  /** seconds until the next attempt, for the 'retrying' event */
  retryInS: number
  /** added to the 'dead' and 'retrying' details (e.g. where SQS takes the message) */
  note?: { dead?: string; retrying?: string }
  /** run first in the same transaction (graphile-worker: a permanent error ends its attempts now) */
  before?: (tx: Tx, p: { permanent: boolean; dead: boolean }) => Promise<void>
  log: WorkerLogger
}

/**
 * THE bookkeeping of a failed attempt, for both transports (worker/runtime/runTask.ts and
 * worker/sqs/sqsMessageHandler.ts), in one transaction: 'failed' with the message, stack
 * and run time; then either 'dead' (a permanent error, or the last attempt), job_records ->
 * dead and the order failed as a dead job fails it (failOrderOfDeadJob), or 'retrying' with
 * when. A failure of this bookkeeping is logged, never thrown over the attempt's error.
 * Returns whether the job is dead.
 */
export async function recordFailedAttempt(
  ctx: Pick<WorkerContext, 'db'>,
  p: RecordFailedAttemptParameters,
): Promise<{ dead: boolean }> {
  const { base, error } = p
  const permanent = isPermanentJobError(error)
  const dead = permanent || base.attempt >= p.maxAttempts
  const message = error instanceof Error ? error.message : String(error)
  const text = error instanceof Error ? (error.stack ?? message) : message
  try {
    await ctx.db.transaction(async (tx) => {
      await p.before?.(tx, { permanent, dead })
      await recordJobEvent(tx, {
        ...base,
        event: 'failed',
        error: text,
        durationMs: p.durationMs,
        detail:
          error instanceof JobAbortedError
            ? `worker shutting down: ${p.unit.handedBack} handed back`
            : firstLine(message),
      })
      if (dead) {
        await updateJobRecord(tx, { ...p.record, state: 'dead', lastError: text })
        const reason = permanent
          ? error.reason
          : `gave up after ${base.attempt} ${p.unit.attempts}: ${firstLine(message)}`
        await recordJobEvent(tx, { ...base, event: 'dead', detail: p.note?.dead ? `${reason} ${p.note.dead}` : reason })
        await failOrderOfDeadJob(tx, { task: base.task, orderId: base.orderId, reason, ...deadCodes(error, permanent) })
      } else {
        await updateJobRecord(tx, { ...p.record, state: 'retrying', lastError: text })
        const when = `attempt ${base.attempt + 1} of ${p.maxAttempts} in about ${p.retryInS} s`
        await recordJobEvent(tx, {
          ...base,
          event: 'retrying',
          detail: p.note?.retrying ? `${when} ${p.note.retrying}` : when,
        })
      }
    })
  } catch (bookkeeping) {
    p.log.error({ err: bookkeeping }, 'could not record the job failure')
  }
  return { dead }
}

/**
 * What a dead job's events say about it (lib/errors/jobs.ts FAILURE_REASONS): the code of
 * the permanent error that ended it, or attempts_exhausted with the last attempt's code.
 */
export function deadCodes(error: unknown, permanent: boolean): { code: FailureReason; lastError?: FailureReason } {
  return permanent
    ? { code: failureReasonOf(error) }
    : { code: 'attempts_exhausted', lastError: failureReasonOf(error) }
}

/** an error message's first line, at most 500 characters (the timeline's detail) */
export function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 500)
}
