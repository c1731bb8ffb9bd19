import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import type { WebhookDeliverPayload } from '@/lib/jobs/payloadTypes'
import { deliverWebhook } from '@/worker/notifications/deliverWebhook'
import type { TaskDefinition } from '../runtime/runTask'

/** as the dispatch (worker/notifications) or an admin's redelivery (the web) queues it: lib/jobs/payloadTypes.ts */
export const webhookDeliverPayload = z.object({
  deliveryId: z.string().uuid(),
}) satisfies z.ZodType<WebhookDeliverPayload>

/**
 * webhook_deliver: one attempt of one delivery (event, endpoint), claimed
 * before the POST and completed after (worker/notifications/deliverWebhook). A non-2xx
 * throws: graphile-worker's backoff retries it, 8 attempts over about half an hour,
 * then the delivery is dead (visible to admins, redeliverable).
 */
export const webhookDeliver: TaskDefinition<WebhookDeliverPayload> = {
  name: TASK.webhookDeliver,
  payload: webhookDeliverPayload,
  run: async (ctx, job) => {
    const result = await deliverWebhook(
      { ...ctx.notify, db: ctx.db, workerId: job.actor },
      { deliveryId: job.payload.deliveryId, attempt: job.attempt, maxAttempts: job.maxAttempts },
    )
    job.log.info({ deliveryId: job.payload.deliveryId, ...result }, 'webhook delivery')
  },
}
