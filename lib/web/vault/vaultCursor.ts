import { ValidationError } from '@/lib/web/errors/request'

// Opaque keyset cursors of the vault lists: base64url of a JSON array of strings (the
// sort key of the last row of a page). Anything this module did not produce is a 422.

export function encodeVaultCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url')
}

/** The cursor's parts; a ValidationError (422, path `cursor`) unless it has exactly `length` strings. */
export function decodeVaultCursor(value: string, length: number): string[] {
  const invalid = () =>
    new ValidationError([{ path: 'cursor', message: 'is not a valid cursor' }], 'The query string is invalid.')
  if (value.length === 0 || value.length > 512 || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid()
  const text = Buffer.from(value, 'base64url').toString('utf8')
  if (Buffer.from(text, 'utf8').toString('base64url') !== value) throw invalid()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid()
  }
  if (!Array.isArray(parsed) || parsed.length !== length || !parsed.every((p) => typeof p === 'string')) throw invalid()
  return parsed as string[]
}
