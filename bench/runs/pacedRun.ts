import { activateSigners } from '../pipeline/activateSigners'
import { runOrderBatch } from '../pipeline/runOrderBatch'
import { pacedTargets } from '../report/pacedTargets'
import { renderUnderCapacity } from '../report/renderUnderCapacity'
import type { BenchRun } from './BenchRun'

/** orders per second of the floor run */
const FLOOR_PER_SECOND = 5

/**
 * Below capacity, one worker running with the fewest signers: paced at half the rate of that drain (1 worker), then
 * the floor, the same path slow enough that each order is a batch of its own. Its worker keeps running for the runs
 * after it (the intake beside the worker, the worker's profile).
 */
export const pacedRun: BenchRun<'paced' | 'floor'> = {
  name: 'paced and floor runs',
  section: 2,
  stack: 'main',
  enabled: () => true,
  // the paced run (at most 2,000), the floor run and the profiles' batches
  mintBodies: () => 3000,
  run: async (ctx) => {
    const { options: o } = ctx
    const base = ctx.measured.drains?.find(
      (d) => d.signers === Math.min(...o.signerCounts) && d.workers === Math.min(...o.workerCounts),
    )
    const capacity = base?.confirmedPerSecond ?? 10
    const perSecond = Math.max(1, Math.floor(capacity / 2))
    const count = Math.min(2000, Math.max(50, Math.round(perSecond * o.pacedSeconds)))
    await activateSigners(ctx.sql, { addresses: ctx.workerSigners.slice(0, base?.signers ?? 1) })
    await ctx.stack.startWorker()
    await ctx.sendNotifications(ctx.measured.burn ? 'the burn drain' : 'the last drain')
    const batch = (n: number, rate: number) =>
      runOrderBatch({
        sql: ctx.sql,
        poster: ctx.poster,
        approver: ctx.approver,
        bodies: ctx.bodies,
        count: n,
        mode: { kind: 'paced', perSecond: rate },
        timeoutMs: 120_000,
        groups: ctx.stack.groups,
      })
    const paced = { ...(await batch(count, perSecond)), capacity, perSecond }
    ctx.log(
      `paced ${perSecond}/s (capacity ${capacity.toFixed(0)}/s): committed->broadcast p50 ${paced.committedToBroadcast.p50.toFixed(1)} ms p99 ${paced.committedToBroadcast.p99.toFixed(1)} ms, ` +
        `broadcast->confirmed p50 ${paced.broadcastToConfirmed.p50.toFixed(0)} ms p99 ${paced.broadcastToConfirmed.p99.toFixed(0)} ms`,
    )
    const floorCount = Math.max(40, FLOOR_PER_SECOND * o.pacedSeconds)
    const floor = { ...(await batch(floorCount, FLOOR_PER_SECOND)), perSecond: FLOOR_PER_SECOND }
    ctx.log(
      `floor ${FLOOR_PER_SECOND}/s: committed->broadcast p50 ${floor.committedToBroadcast.p50.toFixed(1)} ms p99 ${floor.committedToBroadcast.p99.toFixed(1)} ms`,
    )
    return { paced, floor }
  },
  render: renderUnderCapacity,
  targets: pacedTargets,
  method: [
    "Under capacity: open-loop requests at half the drain rate of one signer and one worker; committed = pg_xact_commit_timestamp (track_commit_timestamp) of the approval's `enqueued` row (the approval adds the job), broadcast = the `broadcast` (or `already_known`) row's now(), confirmed = the `confirmed` row's now().",
    "Notifications: before each drain but the first, before the paced run and before section 7, one worker runs until no notification job is queued or running and no event waits for its dispatch (at most 420 s a window); emails = email_deliveries turned `sent` over the windows (messages: their distinct Message-IDs), CPU per notification = the windows' CPU over the emails and webhooks.",
  ],
}
