import type { SessionRefusal } from './verifySession'

export type LogSessionRefusalParameters = {
  reason: SessionRefusal
  /** the user the session names (its claims), as given: it may name no one */
  userId: string
}

/**
 * The one log line of a refused session (`session refused`, the reason, the user id),
 * whichever check refused it: the row read on the request (lib/web/auth/getSessionUser.ts) or
 * the intake's own statement (lib/web/mint/intakeRefusal.ts). A warning, not an error: a
 * revoked or disabled user's next request is expected to be refused.
 */
export function logSessionRefusal({ reason, userId }: LogSessionRefusalParameters): void {
  console.warn(JSON.stringify({ level: 'warn', msg: 'session refused', reason, userId }))
}
