import { createHmac } from 'node:crypto'

export type SignWebhookParameters = {
  /** the endpoint's secrets (`whsec_<base64 key>`): the current one, and during a rotation the previous one too */
  secrets: readonly string[]
  /** the webhook-id header: the event's id */
  id: string
  /** the webhook-timestamp header: unix seconds */
  timestamp: number
  rawBody: string
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification (docs/api.md
 * "Webhooks and email"): for each secret, `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw
 * body>">` keyed by the secret's bytes (the base64 after `whsec_`), space-separated. Any
 * Standard Webhooks library verifies it (the `standardwebhooks` package in our tests).
 */
export function signWebhook({ secrets, id, timestamp, rawBody }: SignWebhookParameters): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64')
      const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest('base64')
      return `v1,${mac}`
    })
    .join(' ')
}
