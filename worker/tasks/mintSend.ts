import { z } from 'zod'
import { claimQueuedJobs } from '@/lib/jobs/claimQueuedJobs'
import { deferQueuedJobs } from '@/lib/jobs/deferQueuedJobs'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { getMintOrder } from '../db/getMintOrder'
import { finishClaimedSends } from '../mint/finishClaimedSends'
import { readSignerRoom } from '../mint/readSignerRoom'
import { sendMintOrders } from '../mint/sendMintOrders'
import type { SendOrder } from '../mint/sendOutcome'
import type { WorkerContext } from '../runtime/context'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'

/** Queued by the intake with the order (job key mint_send:<orderId>). */
export const mintSendPayload = z.object({ orderId: z.guid() })
export type MintSendPayload = z.infer<typeof mintSendPayload>

/**
 * mint_send, the graphile-worker face of the send path (decision 014). The job that
 * runs leads a batch: it claims up to MINT_SEND_BATCH - 1 other queued mint_send jobs
 * (SKIP LOCKED, locked by this worker like any job it holds, so a crash hands them back
 * after the stale-worker unlock), no more than the roomiest signer may still send
 * (MAX_IN_FLIGHT_PER_SIGNER; with no room at all the send queue waits as a whole),
 * hands every order to sendMintOrders, ends each claimed job with its own outcome and
 * trail, and ends as its own order's outcome says: sent or settled: success; wait: a
 * follow-up job later, no attempt spent; failed: thrown (permanent: dead letter).
 */
export const mintSend: TaskDefinition<MintSendPayload> = {
  name: TASK.mintSend,
  payload: mintSendPayload,
  orderIdOf: (p) => p.orderId,
  run: async (ctx, job) => {
    const { orderId } = job.payload
    const room = await readSignerRoom(ctx)
    if (room <= 0) {
      const moved = await deferQueuedJobs(ctx.db, { task: TASK.mintSend, delayMs: ctx.settings.inFlightRetryMs })
      job.log.info({ moved, retryInMs: ctx.settings.inFlightRetryMs }, 'every signer at its in-flight bound: the send queue waits')
      await handOver(ctx, job, { delayMs: ctx.settings.inFlightRetryMs, detail: 'every signer at MAX_IN_FLIGHT_PER_SIGNER: look again' })
      return
    }
    const startedAt = performance.now()
    const claims = await claimQueuedJobs(ctx.db, { task: TASK.mintSend, workerId: job.actor, limit: Math.min(ctx.settings.sendBatch, room) - 1 })
    // a payload that is not { orderId } (queued by older code) is that job's permanent failure, in finishClaimedSends
    const claimed = claims.map((c) => {
      const parsed = mintSendPayload.safeParse(c.payload)
      return { ...c, orderId: parsed.success ? parsed.data.orderId : null }
    })
    const orders: SendOrder[] = [
      { orderId, jobId: job.jobId, attempt: job.attempt },
      ...claimed.flatMap((c) => (c.orderId === null ? [] : [{ orderId: c.orderId, jobId: c.jobId, attempt: c.attempts }])),
    ]
    if (claimed.length > 0) job.log.info({ batch: orders.length }, 'send batch: claimed queued mint_send jobs')

    let outcomes
    try {
      outcomes = await sendMintOrders(ctx, { orders, actor: job.actor, signal: job.signal })
    } catch (error) {
      outcomes = new Map(orders.map((o) => [o.orderId, { kind: 'failed' as const, error }]))
    }
    await finishWithRetries(ctx, job, () => finishClaimedSends(ctx, { claimed, outcomes, workerId: job.actor, durationMs: performance.now() - startedAt }))
    for (const c of claimed) job.log.info({ jobId: c.jobId.toString(), orderId: c.orderId, task: TASK.mintSend, outcome: c.orderId === null ? 'failed' : outcomes.get(c.orderId)?.kind }, 'claimed job finished')

    const own = outcomes.get(orderId) ?? { kind: 'failed' as const, error: new Error('the send batch returned no outcome for this order') }
    if (own.kind === 'failed') throw own.error
    if (own.kind === 'wait') await handOver(ctx, job, { delayMs: own.retryInMs, detail: `${own.reason}: look again in ${own.retryInMs} ms` })
    else job.log.info({ outcome: own.kind, ...(own.kind === 'sent' ? { hash: own.hash, nonce: own.nonce.toString() } : { status: own.status }) }, 'mint_send done')
  },
}

/** Waits without spending an attempt: the job hands over to a new mint_send later, under the order's lock. */
async function handOver(ctx: WorkerContext, job: TaskRun<MintSendPayload>, p: { delayMs: number; detail: string }): Promise<void> {
  const { orderId } = job.payload
  await ctx.db.transaction(async (tx) => {
    await getMintOrder(tx, { orderId, lock: true })
    await enqueueFollowUp(tx, {
      currentJobId: job.jobId,
      task: TASK.mintSend,
      jobKey: mintSendJobKey(orderId),
      payload: { orderId },
      orderId,
      runAt: new Date(Date.now() + p.delayMs),
      maxAttempts: job.maxAttempts,
      actor: job.actor,
      detail: p.detail,
    })
  })
}

/**
 * The claimed jobs must end before this job does: while this worker lives, nobody else
 * unlocks them. A database that stays unreachable is retried for a while; after that the
 * worker exits (as a fenced one does), so the stale-worker sweep hands them back.
 */
async function finishWithRetries(ctx: WorkerContext, job: TaskRun<MintSendPayload>, finish: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await finish()
      return
    } catch (error) {
      if (attempt >= 8) {
        job.log.fatal({ err: error }, 'could not end the jobs claimed by a send batch: exiting so that they are handed back')
        job.log.flush()
        process.exit(1)
      }
      job.log.warn({ err: error, attempt }, 'could not end the claimed jobs of a send batch yet')
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 5_000)))
    }
  }
}
