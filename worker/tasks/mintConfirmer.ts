import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { confirmRunOf } from '../mint/confirmRun'
import { confirmSignerPass } from '../mint/confirmSignerPass'
import { type MintConfirmerPayload, scheduleNextConfirm } from '../mint/scheduleNextConfirm'
import type { TaskDefinition } from '../runtime/runTask'

export const mintConfirmerPayload = z.object({
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  suspects: z.array(z.guid()).optional(),
  head: z.string().regex(/^[0-9]{1,30}$/).optional(),
}) satisfies z.ZodType<MintConfirmerPayload>

/**
 * mint_confirmer: ONE job per signer (key mint_confirmer:<signer>) follows every
 * submitted mint of the signer, instead of a job per order. Each run is one pass
 * (confirmSignerPass: the mined nonce once, receipts only below it, batched; mined,
 * confirmed, reorged, re-sent, replaced) and ends by handing over to its successor
 * CONFIRM_POLL_MS later while the signer has orders in flight, or by ending
 * (scheduleNextConfirm). A failed pass is retried like any job; a worker's death is
 * covered by the heartbeat takeover; a dead confirmer is revived by the next
 * startConfirming or by the nonce health check. The orders it cannot settle in bulk go
 * to a mint_confirm job of their own (worker/tasks/mintConfirm.ts).
 */
export const mintConfirmer: TaskDefinition<MintConfirmerPayload> = {
  name: TASK.mintConfirmer,
  payload: mintConfirmerPayload,
  run: async (ctx, job) => {
    const run = confirmRunOf(TASK.mintConfirmer, job)
    const { signer, suspects = [], head } = job.payload
    const pass = await confirmSignerPass(ctx, run, { signerAddress: signer, suspects, lastHead: head === undefined ? null : BigInt(head) })
    const { following } = await scheduleNextConfirm(ctx, job, { suspects: pass.suspects, head: pass.head })
    job.log.debug({ signer, followed: pass.followed, confirmed: pass.confirmed, following }, 'confirmer pass')
  },
}
