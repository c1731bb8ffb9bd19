import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { dispatchNotificationEvent } from '@/lib/notifications/dispatchNotificationEvent'
import type { TaskDefinition } from '../runtime/runTask'

/** the event to fan out (added by public.record_mint_event with the event itself) */
export const notifyDispatchPayload = z.object({ eventId: z.string().uuid() })
export type NotifyDispatchPayload = z.infer<typeof notifyDispatchPayload>

/**
 * notify_dispatch (issue 16): one order event becomes one webhook_deliver job per
 * subscribed endpoint and one email_send job per recipient, in one transaction
 * (lib/notifications/dispatchNotificationEvent; idempotent). No email is planned by a
 * worker without SMTP_URL.
 */
export const notifyDispatch: TaskDefinition<NotifyDispatchPayload> = {
  name: TASK.notifyDispatch,
  payload: notifyDispatchPayload,
  run: async (ctx, job) => {
    const planned = await dispatchNotificationEvent(ctx.db, {
      eventId: job.payload.eventId,
      email: ctx.notify.settings.smtpUrl !== undefined,
      lanes: ctx.notify.settings.concurrency,
      actor: job.actor,
    })
    job.log.info({ eventId: job.payload.eventId, ...planned }, 'notification event dispatched')
  },
}
