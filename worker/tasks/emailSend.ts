import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { EMAIL_DIGEST_MAX } from '@/worker/notifications/dispatchNotificationBatch'
import { sendNotificationEmail } from '@/worker/notifications/sendNotificationEmail'
import type { TaskDefinition } from '../runtime/runTask'

/**
 * the rows of one email (one address): several make a digest; `{ emailId }`, the one-row form a job queued by an
 * older release may carry, reads as one row
 */
export const emailSendPayload = z
  .union([
    z.object({ emailIds: z.array(z.string().uuid()).min(1).max(EMAIL_DIGEST_MAX) }),
    z.object({ emailId: z.string().uuid() }),
  ])
  .transform((p) => ('emailIds' in p ? p : { emailIds: [p.emailId] }))
export type EmailSendPayload = z.infer<typeof emailSendPayload>

/**
 * email_send: one message through SMTP_URL for the email rows of one address, claimed before it is sent
 * (worker/notifications/sendNotificationEmail).
 */
export const emailSend: TaskDefinition<EmailSendPayload> = {
  name: TASK.emailSend,
  payload: emailSendPayload,
  run: async (ctx, job) => {
    const result = await sendNotificationEmail(
      { ...ctx.notify, db: ctx.db, workerId: job.actor },
      { emailIds: job.payload.emailIds, attempt: job.attempt, maxAttempts: job.maxAttempts },
    )
    job.log.info(
      { emails: job.payload.emailIds.length, firstEmailId: job.payload.emailIds[0], ...result },
      'notification email',
    )
  },
}
