import { randomBytes } from 'node:crypto'

/**
 * A new signing secret of an endpoint, as Standard Webhooks writes them: `whsec_` and 32
 * random bytes in base64 (the key any Standard Webhooks library decodes).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}
