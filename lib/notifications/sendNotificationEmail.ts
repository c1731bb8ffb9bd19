import { createHash } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { emailDeliveries, notificationEvents } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { EmailNotConfiguredError, EmailSendFailedError, NotificationClaimedError } from '@/lib/errors/notifications'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { claimNotification } from './claimNotification'
import { composeOrderEmail } from './composeOrderEmail'
import { mailTransport } from './mailTransport'
import type { NotifyRun } from './NotifyContext'

export type SendNotificationEmailParameters = { emailId: string; attempt: number; maxAttempts: number }

export type SendNotificationEmailReturnType = { outcome: 'sent'; messageId: string } | { outcome: 'finished'; status: string }

/**
 * One attempt of one email (event, address), on the same claim as a webhook delivery:
 * claimed before it is handed to SMTP, completed (`sent`, with its Message-ID) after; an
 * email already sent is never sent again, one whose sender died is sent again after the
 * lease (a late duplicate, with the same Message-ID, so mail clients can fold it).
 * An SMTP failure releases the claim and throws (retried with backoff; dead at the last
 * attempt).
 */
export async function sendNotificationEmail(run: NotifyRun, p: SendNotificationEmailParameters): Promise<SendNotificationEmailReturnType> {
  if (!run.settings.smtpUrl) throw new EmailNotConfiguredError()
  const claim = await claimNotification(run.db, { table: 'email_deliveries', id: p.emailId, leaseMs: run.settings.claimLeaseMs })
  if (claim.outcome === 'missing') throw new PermanentJobError(`email ${p.emailId} does not exist`)
  if (claim.outcome === 'finished') return { outcome: 'finished', status: claim.status }
  if (claim.outcome === 'held') throw new NotificationClaimedError(`email ${p.emailId}`, claim.until)

  const [row] = await run.db
    .select({ address: emailDeliveries.address, event: notificationEvents })
    .from(emailDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, emailDeliveries.eventId))
    .where(eq(emailDeliveries.id, p.emailId))
  if (!row) throw new PermanentJobError(`email ${p.emailId} lost its event`)
  const payload = (typeof row.event.payload === 'object' && row.event.payload !== null ? row.event.payload : {}) as Record<string, unknown>
  const email = composeOrderEmail({ type: row.event.type, orderId: row.event.orderId, payload, appUrl: run.settings.linkBaseUrl ?? 'http://localhost:3000' })
  const messageId = `<${row.event.id}.${createHash('sha256').update(row.address).digest('hex').slice(0, 16)}@mintdesk>`
  const mine = and(eq(emailDeliveries.id, p.emailId), eq(emailDeliveries.claimToken, claim.token))

  try {
    await mailTransport(run.settings.smtpUrl).sendMail({
      from: run.settings.mailFrom,
      to: row.address,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId,
      headers: { 'Mintdesk-Event-Id': `evt_${row.event.id}` },
    })
  } catch (error) {
    const message = redactSecrets(error instanceof Error ? error.message : String(error)).slice(0, 500)
    const dead = p.attempt >= p.maxAttempts
    await run.db
      .update(emailDeliveries)
      .set({ status: dead ? 'dead' : 'pending', claimToken: null, claimedUntil: null, lastError: message, updatedAt: sql`now()` })
      .where(mine)
    throw new EmailSendFailedError(`email ${p.emailId}: ${message}`, { cause: error })
  }
  await run.db
    .update(emailDeliveries)
    .set({ status: 'sent', claimToken: null, claimedUntil: null, messageId, lastError: null, sentAt: sql`now()`, updatedAt: sql`now()` })
    .where(mine)
  return { outcome: 'sent', messageId }
}
