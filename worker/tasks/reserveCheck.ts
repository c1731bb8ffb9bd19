import { z } from 'zod'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { RESERVE_CHECK_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { readReserveFigures } from '@/lib/reserves/readReserveFigures'
import { readTotalSupply } from '@/lib/reserves/readTotalSupply'
import { reconcileBackingTotal } from '@/worker/reserves/reconcileBackingTotal'
import { recordReserveCheck } from '@/worker/reserves/recordReserveCheck'
import { RESERVE_METRICS_MESSAGE, reserveMetricsFields } from '@/worker/reserves/reserveMetrics'
import { lockReserveCheck } from '../db/lockReserveCheck'
import { readSigningSwitch } from '../db/readSigningSwitch'
import { tripSigningSwitch } from '../db/tripSigningSwitch'
import type { TaskDefinition } from '../runtime/runTask'

/** no state goes from one check to the next */
export const reserveCheckPayload = z.object({})
export type ReserveCheckPayload = z.infer<typeof reserveCheckPayload>

/** dead after this many failures in a row (the chain unreadable); every worker's heartbeat revives it */
export const RESERVE_CHECK_MAX_ATTEMPTS = 3

/**
 * reserve_check, one job across all workers (job key reserve_check), every
 * RESERVE_CHECK_MS: the reconciliation of invariant 4. Reads the token's total supply
 * (chain first, then the inventory: lib/reserves/readTotalSupply.ts says why), records
 * the check in reserve_checks, writes the reserve_metrics line the CloudWatch alarm
 * reads, and logs a shortfall as an error. Then folds the running total of the backing
 * bars into a recount (worker/reserves/reconcileBackingTotal.ts), an error if they differed. It repairs nothing: a
 * shortfall needs a person (a bar list that lost bars, tokens minted outside mintdesk); the worker's check
 * before signing keeps it from growing. With STOP_ON_SHORTFALL a shortfall also turns the stop switch on
 * (tripSigningSwitch): no worker signs until a second admin resumes.
 */
export const reserveCheck: TaskDefinition<ReserveCheckPayload> = {
  name: TASK.reserveCheck,
  payload: reserveCheckPayload,
  run: async (ctx, job) => {
    const supply = await readTotalSupply(ctx.chain, { tokenAddress: ctx.tokenAddress })
    const figures = await readReserveFigures(ctx.db, { supply })
    const check = await recordReserveCheck(ctx.db, figures)
    let stopped = (await readSigningSwitch(ctx.db, { share: false })).stopped
    const fields = () => reserveMetricsFields(figures, { signingStopped: stopped })
    if (figures.status === 'shortfall') {
      const f = fields()
      job.log.error(
        { ...f, checkId: check.id.toString() },
        `reserve shortfall: on-chain supply ${f.totalSupply} oz exceeds the bars backing it (${f.backing} oz backing + ${f.inFlight} oz in flight) by ${f.shortfall} oz; ${f.missing} oz of bars held by orders are missing from the latest lists`,
      )
      if (
        ctx.settings.stopOnShortfall &&
        (await tripSigningSwitch(ctx.db, { reason: `reserve shortfall of ${fields().shortfall} oz`, by: job.actor }))
      ) {
        stopped = true
        job.log.error({ checkId: check.id.toString() }, 'STOP_ON_SHORTFALL: the stop switch is on, no worker signs')
      }
    }
    job.log.info({ ...fields(), checkId: check.id.toString() }, RESERVE_METRICS_MESSAGE)

    // the running total the check before each signature reads, folded and compared with a recount of the bars
    const backing = await reconcileBackingTotal(ctx.db)
    if (backing.runningWei !== backing.recountWei) {
      job.log.error(
        { runningWei: backing.runningWei.toString(), recountWei: backing.recountWei.toString() },
        'the running total of the backing bars differed from their recount: a bar changed status without its trigger; the recount stands from now on',
      )
    }

    await ctx.db.transaction(async (tx) => {
      await lockReserveCheck(tx)
      await enqueueFollowUp(tx, {
        currentJobId: job.jobId,
        task: TASK.reserveCheck,
        jobKey: RESERVE_CHECK_JOB_KEY,
        payload: {},
        runAt: new Date(Date.now() + ctx.settings.reserveCheckMs),
        maxAttempts: RESERVE_CHECK_MAX_ATTEMPTS,
        actor: job.actor,
      })
    })
  },
}
