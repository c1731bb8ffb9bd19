import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { confirmRunOf } from '../mint/confirmRun'
import { confirmSignerPass } from '../mint/confirmSignerPass'
import { scheduleNextConfirm } from '../mint/scheduleNextConfirm'
import { waitForNextHead } from '../mint/waitForNextHead'
import type { TaskDefinition } from '../runtime/runTask'

/** The payload of a signer's confirmer, which a run hands to its successor. */
export const signerConfirmPayload = z.object({
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** orders whose nonce was seen used with no receipt of ours */
  suspects: z.array(z.guid()).optional(),
  /** the head block of the last pass (decimal) */
  head: z
    .string()
    .regex(/^[0-9]{1,30}$/)
    .optional(),
})
export type SignerConfirmPayload = z.infer<typeof signerConfirmPayload>

/** a run that ends with orders still open has its successor due this much later (see the hand-over below) */
const HANDOVER_MS = 50

/**
 * signer_confirm: ONE job per signer (key signer_confirm:<signer>) follows every
 * submitted mint of the signer, instead of a job per order. A run makes passes
 * (confirmSignerPass: the mined nonce once, receipts only below it, batched; mined,
 * confirmed, reorged, re-sent, replaced), each as soon as the chain shows a new block
 * (waitForNextHead, at most CONFIRM_POLL_MS apart), for up to CONFIRMER_RUN_MS while the
 * signer has orders in flight, unless (after CONFIRM_POLL_MS) every job slot of its process
 * is busy and confirmer runs hold half of them or more. Then it hands over
 * to its successor (scheduleNextConfirm: HANDOVER_MS later with orders still open,
 * CONFIRM_POLL_MS later otherwise, this process woken for it: ctx.wakeAt) or ends.
 * Looping inside the run keeps a confirmation within a block and a polling interval
 * (a job scheduled in the future waits for graphile-worker's poll, WORKER_POLL_MS) and
 * spares each pass its queue and history rows; making way when confirmers crowd the slots
 * keeps them from starving the sends (docs/decisions/034-round-trips-and-confirmer-runs.md). A failed pass fails the
 * run, retried like any job; a worker's death is covered by the heartbeat takeover; a dead
 * confirmer is revived by the next startConfirming or by the nonce health check. The
 * orders it cannot settle in bulk go to an order_confirm job of their own
 * (worker/tasks/orderConfirm.ts).
 */
export const signerConfirm: TaskDefinition<SignerConfirmPayload> = {
  name: TASK.signerConfirm,
  payload: signerConfirmPayload,
  run: async (ctx, job) => {
    const run = confirmRunOf(TASK.signerConfirm, job)
    const { signer } = job.payload
    let suspects = job.payload.suspects ?? []
    let head = job.payload.head === undefined ? null : BigInt(job.payload.head)
    const started = Date.now()
    const until = started + ctx.settings.confirmerRunMs
    let passes = 0
    let open = 0
    for (;;) {
      const pass = await confirmSignerPass(ctx, run, { signerAddress: signer, suspects, lastHead: head })
      passes++
      suspects = pass.suspects
      head = pass.head
      open = pass.followed - pass.confirmed
      // this process's slots all busy, half of them or more with confirmer runs: make way (a send or a retry filling a
      // nonce gap may be waiting for one), after CONFIRM_POLL_MS
      // at least, so a pass is not pushed behind a queue pickup
      const madeWay = ctx.crowdedByConfirmers() && Date.now() - started >= ctx.settings.confirmPollMs
      if (open <= 0 || job.signal.aborted || Date.now() >= until || madeWay) break
      await waitForNextHead(ctx, { after: pass.head, maxMs: ctx.settings.confirmPollMs, signal: job.signal })
      if (job.signal.aborted) break
    }
    // A run that ends with orders still open hands over HANDOVER_MS later: long enough that a job
    // already due (a send, a retry filling a nonce gap) takes the freed slot first, even
    // though the confirmer's priority is higher (with every slot held by confirmers, sends
    // would otherwise starve); otherwise the successor, if one is needed, looks a poll later.
    const delayMs = open > 0 && !job.signal.aborted ? HANDOVER_MS : ctx.settings.confirmPollMs
    const { following, runAt } = await scheduleNextConfirm(ctx, job, { suspects, head: head ?? 0n, delayMs })
    if (runAt) ctx.wakeAt(runAt)
    job.log.debug({ signer, passes, open, following }, 'confirmer run')
  },
}
