import type { IncomingHttpHeaders } from 'node:http'
import { Webhook } from 'standardwebhooks'

export type VerifyStandardWebhookParameters = {
  /** the endpoint's `whsec_` secret */
  secret: string
  rawBody: string
  /** the request's headers as received: webhook-id, webhook-timestamp, webhook-signature */
  headers: IncomingHttpHeaders | Record<string, string>
}

/**
 * TEST ONLY: what a receiver does with a delivery, with the Standard Webhooks project's own
 * library (`standardwebhooks`): true iff one of the signatures is the secret's over these
 * bytes and the timestamp is within its tolerance (5 minutes).
 */
export function verifyStandardWebhook({ secret, rawBody, headers }: VerifyStandardWebhookParameters): boolean {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat[name] = value
  try {
    new Webhook(secret).verify(rawBody, flat)
    return true
  } catch {
    return false
  }
}
