import { ApiError } from '@/lib/web/errors/api'
import { type ApiKeySignature, type ApiSigningKeys, signingKeysSchema } from '@/lib/web/signing/apiTypes'

// The signed-in user's signing keys (docs/api.md "How the browser signs"): same-origin
// requests, the session cookie goes along.

/** GET /api/me/signing-key: the text a key signs (personal_sign) to be bound, and the keys bound already */
export async function fetchSigningKeys(): Promise<ApiSigningKeys> {
  const res = await fetch('/api/me/signing-key', { cache: 'no-store', headers: { accept: 'application/json' } })
  if (!res.ok) throw await ApiError.from(res)
  const parsed = signingKeysSchema.safeParse(await res.json())
  if (!parsed.success) {
    throw new ApiError({ status: res.status, code: 'http_error', message: 'The signing keys are not readable.' })
  }
  return parsed.data
}

export const signingKeysQueryKey = ['me', 'signing-key'] as const

/** POST /api/me/signing-key: binds the key that signed the text to the signed-in user */
export async function postSigningKey({ address, signature }: ApiKeySignature): Promise<void> {
  const res = await fetch('/api/me/signing-key', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address, signature }),
  })
  if (!res.ok) throw await ApiError.from(res)
}
