import { MINT_REQUEST_LIMITS } from '@/lib/mint/mintRequestLimits'
import { ValidationError } from '@/lib/web/errors'

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/**
 * The optional `Idempotency-Key` header: absent -> null; otherwise 1 to 128 visible
 * ASCII characters (inner spaces allowed), else a ValidationError (422) on the header.
 */
export function parseIdempotencyKey(headers: Headers): string | null {
  const value = headers.get(IDEMPOTENCY_KEY_HEADER)
  if (value === null) return null
  const { minIdempotencyKey: min, maxIdempotencyKey: max } = MINT_REQUEST_LIMITS
  if (value.length < min || value.length > max || !/^[\x20-\x7e]+$/.test(value)) {
    throw new ValidationError(
      [{ path: IDEMPOTENCY_KEY_HEADER, message: `must be ${min} to ${max} printable ASCII characters` }],
      'The Idempotency-Key header is invalid.',
    )
  }
  return value
}
