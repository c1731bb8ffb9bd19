import { WalletFailedError } from '@/lib/web/errors/wallet'
import { type ApiKeySignature, type DevSignBody, keySignatureSchema } from '@/lib/web/signing/apiTypes'

/**
 * The dev signer (dev mode only): POST /api/dev/sign signs typed data or a text with the
 * signed-in user's dev key, on the server, so the dev mnemonic never reaches the browser.
 * Outside dev mode the route answers 404, and this throws WalletFailedError.
 */
export async function requestDevSignature(body: DevSignBody): Promise<ApiKeySignature> {
  const res = await fetch('/api/dev/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer: unknown = await res.json().catch(() => null)
  const parsed = keySignatureSchema.safeParse(answer)
  if (res.ok && parsed.success) return parsed.data
  throw new WalletFailedError({
    message: `The dev signer did not sign: ${errorMessageOf(answer) ?? `the server answered ${res.status}`}.`,
  })
}

function errorMessageOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || !('error' in answer)) return undefined
  const error: unknown = answer.error
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined
  return typeof error.message === 'string' ? error.message : undefined
}
