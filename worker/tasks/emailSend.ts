import { z } from 'zod'
import { TASK } from '@/lib/jobs/jobKeys'
import { sendNotificationEmail } from '@/lib/notifications/sendNotificationEmail'
import type { TaskDefinition } from '../runtime/runTask'

export const emailSendPayload = z.object({ emailId: z.string().uuid() })
export type EmailSendPayload = z.infer<typeof emailSendPayload>

/** email_send (issue 16): one email (event, address) through SMTP_URL, claimed before it is sent (lib/notifications/sendNotificationEmail). */
export const emailSend: TaskDefinition<EmailSendPayload> = {
  name: TASK.emailSend,
  payload: emailSendPayload,
  run: async (ctx, job) => {
    const result = await sendNotificationEmail(
      { ...ctx.notify, db: ctx.db, workerId: job.actor },
      { emailId: job.payload.emailId, attempt: job.attempt, maxAttempts: job.maxAttempts },
    )
    job.log.info({ emailId: job.payload.emailId, ...result }, 'notification email')
  },
}
