import { createHmac } from 'node:crypto'

export type SignWebhookParameters = { secret: string; rawBody: string; timestamp: number }

/**
 * The `Mintdesk-Signature` header (docs/api.md "Webhooks and email"): `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>">` with the endpoint's secret. Receivers recompute it over
 * the exact bytes they received and compare in constant time.
 */
export function signWebhook({ secret, rawBody, timestamp }: SignWebhookParameters): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex')
  return `t=${timestamp},v1=${v1}`
}
