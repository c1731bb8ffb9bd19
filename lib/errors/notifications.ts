import { BaseError } from './BaseError'
import { PermanentJobError, WorkerError } from './jobs'

/** Errors of notifications: webhooks and email. */

/**
 * A sealed webhook secret does not open (another WEBHOOK_SECRETS_KEY, a row copied elsewhere): retrying cannot help.
 */
export class WebhookSecretError extends PermanentJobError {
  override name = 'WebhookSecretError'
}

/** Production without WEBHOOK_SECRETS_KEY: no secret could be kept, so no endpoint is subscribed (503). */
export class WebhooksNotConfiguredError extends BaseError {
  override name = 'WebhooksNotConfiguredError'
  constructor() {
    super('webhooks_not_configured', 'Webhooks are not configured on this server (WEBHOOK_SECRETS_KEY is not set).')
  }
}

/** A delivery's POST did not get a 2xx within the timeout: retried with backoff. */
export class WebhookDeliveryFailedError extends WorkerError {
  override name = 'WebhookDeliveryFailedError'
}

/**
 * Another attempt holds the claim of this delivery or email (a live
 * one, or a crashed one until its lease ends): retried later.
 */
export class NotificationClaimedError extends WorkerError {
  override name = 'NotificationClaimedError'
  constructor(what: string, until: Date) {
    super(`${what} is claimed by another attempt until ${until.toISOString()}: retried after that`)
  }
}

/** The SMTP server refused or could not be reached: retried with backoff. */
export class EmailSendFailedError extends WorkerError {
  override name = 'EmailSendFailedError'
}

/** SMTP_URL is not set on this worker: the email waits (retried) until a worker that has it takes it. */
export class EmailNotConfiguredError extends WorkerError {
  override name = 'EmailNotConfiguredError'
  constructor() {
    super('SMTP_URL is not set on this worker: no email can be sent')
  }
}
