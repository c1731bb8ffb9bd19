import { type ResolveHost, resolveSafeAddresses } from '@/lib/notifications/resolveSafeAddresses'
import { ValidationError } from '@/lib/web/errors/request'

export type CheckWebhookTargetParameters = {
  url: string
  production: boolean
  resolve?: ResolveHost
}

/**
 * Refuses a webhook target before anything is written (422 validation_failed on `url`):
 * not an http(s) URL, credentials in it, not https in production, or (production) a host
 * that resolves to a loopback, private or reserved address (no server-side request
 * forgery; the same check runs again at every delivery, on the address connected to).
 * Returns the URL as it will be stored.
 */
export async function checkWebhookTarget({ url, production, resolve }: CheckWebhookTargetParameters): Promise<string> {
  const refuse = (message: string): never => {
    throw new ValidationError([{ path: 'url', message }], 'The webhook target is refused.')
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return refuse('Not a URL.')
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    refuse('Only http and https URLs can receive webhooks.')
  if (production && parsed.protocol !== 'https:') refuse('Webhook targets must use https in production.')
  if (parsed.username || parsed.password)
    refuse('A webhook URL cannot carry credentials; the signature authenticates the sender.')
  if (parsed.hash) refuse('A webhook URL cannot have a fragment.')
  const safe = await resolveSafeAddresses({ hostname: parsed.hostname, production, resolve })
  if (!safe.ok) refuse(`Refused: ${safe.reason}.`)
  return parsed.toString()
}
