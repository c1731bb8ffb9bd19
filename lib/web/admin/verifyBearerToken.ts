import { createHash, timingSafeEqual } from 'node:crypto'

export type VerifyBearerTokenParameters = {
  /** the request's Authorization header */
  authorization: string | null
  /** the configured token; undefined or empty -> nobody is let in */
  expected: string | undefined
}

/**
 * `Authorization: Bearer <token>` checked in constant time: both sides are hashed
 * (SHA-256) first, so neither the token's content nor its length shows in the timing.
 */
export function verifyBearerToken({ authorization, expected }: VerifyBearerTokenParameters): boolean {
  if (!expected) return false
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '')
  const given = match?.[1] ?? ''
  const a = createHash('sha256').update(given, 'utf8').digest()
  const b = createHash('sha256').update(expected, 'utf8').digest()
  return timingSafeEqual(a, b) && given !== ''
}
