import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { confirmRunOf } from '../mint/confirmRun'
import { confirmSignerPass } from '../mint/confirmSignerPass'
import { type MintConfirmerPayload, scheduleNextConfirm } from '../mint/scheduleNextConfirm'
import { waitForNextHead } from '../mint/waitForNextHead'
import type { TaskDefinition } from '../runtime/runTask'

export const mintConfirmerPayload = z.object({
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  suspects: z.array(z.guid()).optional(),
  head: z.string().regex(/^[0-9]{1,30}$/).optional(),
}) satisfies z.ZodType<MintConfirmerPayload>

/**
 * mint_confirmer: ONE job per signer (key mint_confirmer:<signer>) follows every
 * submitted mint of the signer, instead of a job per order. A run makes passes
 * (confirmSignerPass: the mined nonce once, receipts only below it, batched; mined,
 * confirmed, reorged, re-sent, replaced), each as soon as the chain shows a new block
 * (waitForNextHead, at most CONFIRM_POLL_MS apart), for CONFIRMER_RUN_MS while the signer
 * has orders in flight; then it hands over to its successor (scheduleNextConfirm: at once
 * after a full run, CONFIRM_POLL_MS later otherwise) or ends. Looping inside the run, not
 * one job per pass, keeps a confirmation within a block and a polling interval: a job
 * scheduled in the future waits for graphile-worker's poll (WORKER_POLL_MS), and each run
 * costs its queue and history rows (decision 022). A failed pass fails the run, retried
 * like any job; a worker's death is covered by the heartbeat takeover; a dead confirmer is
 * revived by the next startConfirming or by the nonce health check. The orders it cannot
 * settle in bulk go to a mint_confirm job of their own (worker/tasks/mintConfirm.ts).
 */
export const mintConfirmer: TaskDefinition<MintConfirmerPayload> = {
  name: TASK.mintConfirmer,
  payload: mintConfirmerPayload,
  run: async (ctx, job) => {
    const run = confirmRunOf(TASK.mintConfirmer, job)
    const { signer } = job.payload
    let suspects = job.payload.suspects ?? []
    let head = job.payload.head === undefined ? null : BigInt(job.payload.head)
    const until = Date.now() + ctx.settings.confirmerRunMs
    let passes = 0
    let open = 0
    for (;;) {
      const pass = await confirmSignerPass(ctx, run, { signerAddress: signer, suspects, lastHead: head })
      passes++
      suspects = pass.suspects
      head = pass.head
      open = pass.followed - pass.confirmed
      if (open <= 0 || job.signal.aborted || Date.now() >= until) break
      await waitForNextHead(ctx, { after: pass.head, maxMs: ctx.settings.confirmPollMs, signal: job.signal })
      if (job.signal.aborted) break
    }
    // a full run with orders still open hands over at once; otherwise the successor (if any is needed) looks again a poll later
    const delayMs = open > 0 && !job.signal.aborted ? 0 : ctx.settings.confirmPollMs
    const { following } = await scheduleNextConfirm(ctx, job, { suspects, head: head ?? 0n, delayMs })
    job.log.debug({ signer, passes, open, following }, 'confirmer run')
  },
}
