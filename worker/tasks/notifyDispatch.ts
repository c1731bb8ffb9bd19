import { z } from 'zod'
import { detachRunningJobKey } from '@/lib/jobs/detachRunningJobKey'
import { TASK } from '@/lib/jobs/jobKeys'
import { dispatchNotificationBatch, NOTIFY_DISPATCH_BATCH } from '@/worker/notifications/dispatchNotificationBatch'
import { reopenNotificationEvent } from '@/worker/notifications/reopenNotificationEvent'
import type { WorkerContext } from '../runtime/context'
import type { TaskDefinition, TaskRun } from '../runtime/runTask'

/**
 * `{}` from public.record_mint_event; `{ eventId }` only on a job queued before the
 * dispatch was coalesced (it re-opens that event)
 */
export const notifyDispatchPayload = z.object({ eventId: z.string().uuid().optional() })
export type NotifyDispatchPayload = z.infer<typeof notifyDispatchPayload>

/**
 * notify_dispatch: ONE job under one key, woken by every event, fans out ALL
 * undispatched events, in batches of NOTIFY_DISPATCH_BATCH (one transaction each), until a batch comes back short. It
 * first lets go of its key (lib/jobs/detachRunningJobKey): an event committed while it runs
 * adds a new job, which starts after that commit, so no event is left behind. No email
 * is planned by a worker without SMTP_URL.
 */
export const notifyDispatch: TaskDefinition<NotifyDispatchPayload> = {
  name: TASK.notifyDispatch,
  payload: notifyDispatchPayload,
  run: async (ctx, job) => {
    await detachRunningJobKey(ctx.db, { jobId: job.jobId, attempt: job.attempt })
    if (job.payload.eventId !== undefined) await reopenNotificationEvent(ctx.db, { eventId: job.payload.eventId })
    const planned = await dispatchAll(ctx, job)
    job.log.info(planned, 'notification events dispatched')
  },
}

/** batch after batch until one comes back short */
async function dispatchAll(ctx: WorkerContext, job: TaskRun<NotifyDispatchPayload>) {
  const total = { events: 0, deliveries: 0, emails: 0, batches: 0 }
  for (;;) {
    job.checkpoint('notify dispatch batch')
    const batch = await dispatchNotificationBatch(ctx.db, {
      limit: NOTIFY_DISPATCH_BATCH,
      email: ctx.notify.settings.smtpUrl !== undefined,
      lanes: ctx.notify.settings.concurrency,
      actor: job.actor,
    })
    total.events += batch.events
    total.deliveries += batch.deliveries
    total.emails += batch.emails
    total.batches++
    // a short batch: every event committed before it was taken (or is being taken by another run)
    if (batch.events < NOTIFY_DISPATCH_BATCH) return total
  }
}
