import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors'

/** A position in the newest-first list: created_at in microseconds since the epoch, and the id. */
export type MintOrderCursor = { createdAtMicros: bigint; id: string }

// The cursor is opaque to clients: base64url of "<micros>.<uuid>". Microseconds, not a
// JS Date, because Postgres keeps microseconds and a millisecond cursor would skip or
// repeat orders created within the same millisecond.

export function encodeMintOrderCursor(cursor: MintOrderCursor): string {
  return base64UrlEncode(`${cursor.createdAtMicros}.${cursor.id}`)
}

/**
 * The newest created_at a cursor can carry: 9999-12-31T23:59:59.999999Z. Beyond it (up to the
 * bigint range, which a 19-digit number can pass) Postgres would fail the query: a 500.
 */
const MAX_CREATED_AT_MICROS = 253_402_300_799_999_999n

/** Throws a ValidationError (422, path `cursor`) on anything this module did not produce. */
export function decodeMintOrderCursor(value: string): MintOrderCursor {
  const invalid = () => new ValidationError([{ path: 'cursor', message: 'is not a valid cursor' }])
  if (value.length === 0 || value.length > 128 || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid()
  const decoded = base64UrlDecode(value)
  const match = decoded === null ? null : /^([0-9]{1,19})\.(.+)$/.exec(decoded)
  if (!match?.[1] || !match[2] || !isUuid(match[2])) throw invalid()
  const createdAtMicros = BigInt(match[1])
  if (createdAtMicros > MAX_CREATED_AT_MICROS) throw invalid()
  return { createdAtMicros, id: match[2].toLowerCase() }
}

function base64UrlEncode(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url')
}

function base64UrlDecode(value: string): string | null {
  const text = Buffer.from(value, 'base64url').toString('utf8')
  // Buffer ignores junk silently; insist on an exact round-trip
  return base64UrlEncode(text) === value ? text : null
}
