import { InvalidPayloadError, isPermanentJobError, JobAbortedError } from '@/lib/errors/jobs'
import { redactErrorInPlace } from '@/lib/errors/redactSecrets'
import type { ClaimedJob } from '@/lib/jobs/claimQueuedJobs'
import { finishClaimedJobs } from '@/lib/jobs/finishClaimedJobs'
import type { RecordJobEventParameters } from '@/lib/jobs/recordJobEvent'
import { recordJobEvents } from '@/lib/jobs/recordJobEvents'
import { failOrderOfDeadJob } from '../db/failOrderOfDeadJob'
import type { UpdateJobRecordParameters } from '../db/updateJobRecord'
import { updateJobRecords } from '../db/updateJobRecords'
import type { WorkerContext } from '../runtime/context'
import { deadCodes, firstLine } from '../runtime/recordFailedAttempt'
import type { SendOutcome } from './sendOutcome'

export type FinishClaimedSendsParameters = {
  /** the send task the jobs are of (mint_send, redemption_send...) */
  task: string
  /** the jobs the batch claimed, each with its operation (null: a payload without a valid operation id) */
  claimed: readonly (ClaimedJob & { orderId: string | null })[]
  outcomes: ReadonlyMap<string, SendOutcome>
  workerId: string
  /** the batch's run time, each claimed attempt's duration */
  durationMs: number
}

/**
 * The end of every claimed job of a send batch, in ONE transaction, with the same trail
 * runTask leaves for the job it runs (worker/runtime/runTask.ts): 'started', then
 * 'succeeded' (sent, settled) or 'failed' + 'retrying'/'dead' (a dead one fails its
 * operation, as a dead send job does); a wait hands the job back with its attempt (no
 * events: it did not run). graphile-worker's queue rows end as graphile-worker would end
 * them (lib/jobs/finishClaimedJobs.ts).
 */
export async function finishClaimedSends(ctx: WorkerContext, p: FinishClaimedSendsParameters): Promise<void> {
  if (p.claimed.length === 0) return
  const events: RecordJobEventParameters[] = []
  const records: UpdateJobRecordParameters[] = []
  const done: bigint[] = []
  const failed: { jobId: bigint; message: string; permanent: boolean }[] = []
  const deferred: { jobId: bigint; delayMs: number }[] = []
  const dead: ({ jobId: bigint; orderId: string; reason: string } & ReturnType<typeof deadCodes>)[] = []
  for (const job of p.claimed) {
    const outcome: SendOutcome = (job.orderId === null ? undefined : p.outcomes.get(job.orderId)) ?? {
      kind: 'failed',
      error: new InvalidPayloadError(`invalid ${p.task} payload: ${JSON.stringify(job.payload)}`),
    }
    const base = {
      task: p.task,
      orderId: job.orderId,
      jobId: job.jobId,
      attempt: job.attempts,
      actor: p.workerId,
    }
    const record = {
      jobId: job.jobId,
      task: p.task,
      orderId: job.orderId,
      payload: job.payload,
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
    }
    if (outcome.kind === 'wait') {
      deferred.push({ jobId: job.jobId, delayMs: outcome.retryInMs })
      records.push({ ...record, attempts: job.attempts - 1, state: 'scheduled' })
      continue
    }
    events.push({
      ...base,
      event: 'started',
      detail: `attempt ${job.attempts} of ${job.maxAttempts} (in a send batch)`,
    })
    if (outcome.kind === 'sent' || outcome.kind === 'settled') {
      done.push(job.jobId)
      events.push({ ...base, event: 'succeeded', durationMs: p.durationMs })
      records.push({ ...record, state: 'done', lastError: null })
      continue
    }
    const error = redactErrorInPlace(outcome.error)
    const permanent = isPermanentJobError(error)
    const message = error instanceof Error ? error.message : String(error)
    const text = error instanceof Error ? (error.stack ?? message) : message
    const detail = error instanceof JobAbortedError ? 'worker shutting down: job handed back' : firstLine(message)
    events.push({ ...base, event: 'failed', error: text, durationMs: p.durationMs, detail })
    failed.push({ jobId: job.jobId, message: firstLine(message), permanent })
    if (permanent || job.attempts >= job.maxAttempts) {
      const reason = permanent ? error.reason : `gave up after ${job.attempts} attempts: ${firstLine(message)}`
      events.push({ ...base, event: 'dead', detail: reason })
      records.push({ ...record, state: 'dead', lastError: text })
      if (job.orderId !== null)
        dead.push({ jobId: job.jobId, orderId: job.orderId, reason, ...deadCodes(error, permanent) })
    } else {
      events.push({
        ...base,
        event: 'retrying',
        detail: `attempt ${job.attempts + 1} of ${job.maxAttempts} in about ${Math.round(Math.exp(Math.min(job.attempts, 10)))} s`,
      })
      records.push({ ...record, state: 'retrying', lastError: text })
    }
  }
  await ctx.db.transaction(async (tx) => {
    // a job no longer ours (this worker was declared stale and it was handed on) keeps the trail its new holder writes
    const ours = await finishClaimedJobs(tx, { workerId: p.workerId, done, failed, deferred })
    await updateJobRecords(
      tx,
      records.filter((r) => ours.has(r.jobId)),
    )
    await recordJobEvents(
      tx,
      events.filter((e) => e.jobId != null && ours.has(BigInt(e.jobId))),
    )
    for (const d of dead)
      if (ours.has(d.jobId))
        await failOrderOfDeadJob(tx, {
          task: p.task,
          orderId: d.orderId,
          reason: d.reason,
          code: d.code,
          lastError: d.lastError,
        })
  })
}
