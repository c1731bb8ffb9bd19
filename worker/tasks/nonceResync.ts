import { sql } from 'drizzle-orm'
import { isAddress } from 'viem'
import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { NONCE_RESYNC_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { resyncSignerNonces } from '../mint/resyncSignerNonces'
import { reconcileChainEvents } from '../reconciliation/reconcileChainEvents'
import type { TaskDefinition } from '../runtime/runTask'

/** one signer, or every signer when left out (what the admins' button adds, too) */
export const nonceResyncPayload = z.object({
  signerAddress: z
    .string()
    .refine((a) => isAddress(a, { strict: false }), 'a 20-byte hex address')
    .optional(),
})
export type NonceResyncPayload = z.infer<typeof nonceResyncPayload>

/** dead after this many failures in a row (the chain unreadable); every worker's heartbeat revives the periodic one */
export const NONCE_RESYNC_MAX_ATTEMPTS = 3

/**
 * nonce_resync (docs/decisions/063-nonce-resync-after-restore.md): brings every signer's next_nonce (or the named
 * signer's) up to the chain's count when the chain is ahead, as after a database restore, without signing anything
 * (worker/mint/resyncSignerNonces.ts), then reconciles the chain's events from the stored cursor: mints the database
 * forgot are confirmed, events no row accounts for are listed (worker/reconciliation/reconcileChainEvents.ts). Every
 * worker runs one pass at its start before it takes a job; the job without a signer is periodic (job key
 * nonce_resync, every NONCE_HEALTH_MS, revived by every heartbeat); a broadcast answered "nonce too low" adds one for
 * its signer.
 */
export const nonceResync: TaskDefinition<NonceResyncPayload> = {
  name: TASK.nonceResync,
  payload: nonceResyncPayload,
  run: async (ctx, job) => {
    const { signerAddress } = job.payload
    const signers = await resyncSignerNonces(ctx, { signerAddress, actor: job.actor, jobId: job.jobId })
    for (const s of signers.filter((x) => x.resynced))
      job.log.warn({ signer: s.address, chainNonce: s.chainNonce.toString() }, 'nonce resynced')
    job.checkpoint('reconciling chain events')
    const events = await reconcileChainEvents(ctx, { actor: job.actor, jobId: job.jobId })
    job.log.debug(
      { toBlock: events.toBlock.toString(), confirmed: events.confirmed.length, unreconciled: events.unreconciled },
      'nonce resync',
    )
    if (signerAddress) return
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mintdesk:nonce_resync'))`)
      await enqueueFollowUp(tx, {
        currentJobId: job.jobId,
        task: TASK.nonceResync,
        jobKey: NONCE_RESYNC_JOB_KEY,
        payload: {},
        runAt: new Date(Date.now() + ctx.settings.nonceHealthMs),
        maxAttempts: NONCE_RESYNC_MAX_ATTEMPTS,
        actor: job.actor,
      })
    })
  },
}
