import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { emailDeliveries } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { EmailNotConfiguredError, EmailSendFailedError, NotificationClaimedError } from '@/lib/errors/notifications'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { type ClaimedEmail, claimEmails } from './claimEmails'
import { composeDigestEmail } from './composeDigestEmail'
import { composeOrderEmail } from './composeOrderEmail'
import { mailTransport } from './mailTransport'
import type { NotifyRun } from './NotifyContext'

export type SendNotificationEmailParameters = {
  /**
   * the email rows (event, address) of one job, all to one address
   * (dispatchNotificationBatch groups them), oldest event first
   */
  emailIds: readonly string[]
  attempt: number
  maxAttempts: number
}

export type SendNotificationEmailReturnType =
  | { outcome: 'sent'; messageId: string; events: number }
  | { outcome: 'finished'; events: number }

/**
 * One attempt of one email job: its rows claimed together before anything is handed to
 * SMTP (claimEmails), then ONE message for them: the order's own email for a single event,
 * a digest for several; completed (`sent`, every row with the message's
 * Message-ID) after. A row already sent is never sent again; rows whose sender died are
 * sent again after the lease (a late duplicate, with the same Message-ID, so mail clients
 * can fold it). An SMTP failure releases the claims and throws (retried with backoff; the
 * rows dead at the last attempt). Rows another attempt still holds fail this attempt once
 * the others are sent: the retry takes them after the lease.
 */
export async function sendNotificationEmail(
  run: NotifyRun,
  p: SendNotificationEmailParameters,
): Promise<SendNotificationEmailReturnType> {
  if (!run.settings.smtpUrl) throw new EmailNotConfiguredError()
  const what =
    p.emailIds.length === 1 ? `email ${p.emailIds[0]}` : `the ${p.emailIds.length} emails from ${p.emailIds[0]}`
  const claim = await claimEmails(run.db, { ids: p.emailIds, leaseMs: run.settings.claimLeaseMs })
  if (claim.missing === p.emailIds.length) throw new PermanentJobError(`${what}: no such email row`)
  const heldError = () => new NotificationClaimedError(what, claim.held.until ?? new Date())
  if (claim.claimed.length === 0) {
    if (claim.held.count > 0) throw heldError()
    return { outcome: 'finished', events: claim.finished }
  }

  const mine = eq(emailDeliveries.claimToken, claim.token)
  const [first] = claim.claimed
  if (!first || claim.claimed.some((c) => c.address !== first.address)) {
    // dispatchNotificationBatch never groups two addresses: the
    // claims go back, and the job is a dead letter an admin sees
    await run.db
      .update(emailDeliveries)
      .set({ claimToken: null, claimedUntil: null, updatedAt: sql`now()` })
      .where(mine)
    throw new PermanentJobError(`${what}: the rows of one email job must share one address`)
  }
  const message = composeMessage(claim.claimed, run.settings.linkBaseUrl ?? 'http://localhost:3000')
  try {
    await mailTransport(run.settings.smtpUrl).sendMail({ from: run.settings.mailFrom, to: first.address, ...message })
  } catch (error) {
    const text = redactSecrets(error instanceof Error ? error.message : String(error)).slice(0, 500)
    const dead = p.attempt >= p.maxAttempts
    await run.db
      .update(emailDeliveries)
      .set({
        status: dead ? 'dead' : 'pending',
        claimToken: null,
        claimedUntil: null,
        lastError: text,
        updatedAt: sql`now()`,
      })
      .where(mine)
    throw new EmailSendFailedError(`${what}: ${text}`, { cause: error })
  }
  await run.db
    .update(emailDeliveries)
    .set({
      status: 'sent',
      claimToken: null,
      claimedUntil: null,
      messageId: message.messageId,
      lastError: null,
      sentAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(mine)
  if (claim.held.count > 0) throw heldError()
  return { outcome: 'sent', messageId: message.messageId, events: claim.claimed.length }
}

type Message = { subject: string; text: string; html: string; messageId: string; headers: Record<string, string> }

/**
 * The message of the claimed rows: the order's email for one event, the digest for more.
 * Its Message-ID depends only on the events and the address, so a message sent again after
 * a crash (the same rows, claimed again) carries the same one.
 */
function composeMessage(rows: readonly ClaimedEmail[], appUrl: string): Message {
  const [first] = rows
  if (!first) throw new Error('composeMessage: no rows')
  const addressHash = createHash('sha256').update(first.address).digest('hex').slice(0, 16)
  if (rows.length === 1) {
    const email = composeOrderEmail({
      type: first.type,
      orderId: first.orderId,
      payload: first.payload,
      appUrl,
      recipientLabel: first.recipientLabel,
      rejectionReason: first.rejectionReason,
    })
    return {
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: `<${first.eventId}.${addressHash}@mintdesk>`,
      headers: { 'Mintdesk-Event-Id': `evt_${first.eventId}` },
    }
  }
  const email = composeDigestEmail({ items: rows, appUrl })
  const events = rows.map((r) => r.eventId)
  const digest = createHash('sha256')
    .update([...events].sort().join(','))
    .digest('hex')
    .slice(0, 32)
  return {
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: `<digest.${digest}.${addressHash}@mintdesk>`,
    headers: { 'Mintdesk-Event-Ids': events.map((id) => `evt_${id}`).join(', ') },
  }
}
