import { timingSafeEqual } from 'node:crypto'
import { signWebhook } from '../../worker/notifications/signWebhook'

export type VerifyWebhookSignatureParameters = {
  secret: string
  rawBody: string
  /** the Mintdesk-Signature header as received */
  header: string
  /** now, unix seconds; a signature older than toleranceSeconds is refused (replay) */
  now?: number
  toleranceSeconds?: number
}

/**
 * What a receiver does with a delivery (documented in docs/api.md, used by the tests): true iff it is ours and fresh.
 */
export function verifyWebhookSignature({
  secret,
  rawBody,
  header,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
}: VerifyWebhookSignatureParameters): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1]
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1]
  if (!t || !v1) return false
  const timestamp = Number(t)
  if (Math.abs(now - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(signWebhook({ secret, rawBody, timestamp }).split('v1=')[1] ?? '', 'hex')
  const given = Buffer.from(v1, 'hex')
  return expected.length === given.length && timingSafeEqual(expected, given)
}
