/**
 * Login throttling: after `maxFailures` (5) failed sign-ins for one email, or from one
 * IP, within `windowMs` (15 minutes), further attempts for that email or from that IP are
 * refused until the oldest of those failures leaves the window (a sliding window).
 *
 * LIMITATION: the state lives in this process's memory. With N web processes an
 * attacker gets up to N x 5 tries per window, and a restart forgets everything. There
 * is no table for it; see docs/decisions/004-next-auth-v5.md.
 *
 * An attempt counts as a failure from the moment it is allowed, and is taken back only
 * when the caller reports success. So 100 concurrent guesses cannot all slip past the
 * check before the first failure is recorded, and an attempt that crashes counts as
 * failed. Refused attempts are not counted (they never reach the password check).
 */

export type LoginThrottleOptions = {
  /** failures allowed per email within the window */
  maxFailures?: number
  /** failures allowed per IP within the window (defaults to maxFailures); everyone behind one NAT shares it */
  maxFailuresPerIp?: number
  windowMs?: number
  /** bound on remembered emails + IPs; the least recently touched are forgotten first */
  maxKeys?: number
  now?: () => number
}

export type LoginAttemptParameters = { email: string; ip: string | null }

export type LoginAttempt =
  | {
      allowed: true
      /** the credentials were right: forget this email's failures and take this attempt back */
      succeeded: () => void
    }
  | { allowed: false; retryAfterMs: number }

export type LoginThrottle = {
  attempt: (params: LoginAttemptParameters) => LoginAttempt
  /** forget everything (tests) */
  reset: () => void
}

export function createLoginThrottle({
  maxFailures = 5,
  maxFailuresPerIp = maxFailures,
  windowMs = 15 * 60 * 1000,
  maxKeys = 10_000,
  now = Date.now,
}: LoginThrottleOptions = {}): LoginThrottle {
  // key -> timestamps of recent failures, oldest first, at most limitOf(key) of them
  const failures = new Map<string, number[]>()
  const limitOf = (key: string) => (key.startsWith('ip:') ? maxFailuresPerIp : maxFailures)

  function recent(key: string, at: number): number[] {
    const list = failures.get(key)
    if (!list) return []
    const kept = list.filter((t) => at - t < windowMs)
    if (kept.length === 0) failures.delete(key)
    else if (kept.length !== list.length) failures.set(key, kept)
    return kept
  }

  function record(key: string, at: number): void {
    const list = recent(key, at)
    list.push(at)
    const limit = limitOf(key)
    if (list.length > limit) list.splice(0, list.length - limit)
    failures.delete(key) // re-insert: Map order doubles as least-recently-touched order
    failures.set(key, list)
    while (failures.size > maxKeys) {
      const oldest = failures.keys().next()
      if (oldest.done) break
      failures.delete(oldest.value)
    }
  }

  function unrecord(key: string, at: number): void {
    const list = failures.get(key)
    if (!list) return
    const i = list.lastIndexOf(at)
    if (i >= 0) list.splice(i, 1)
    if (list.length === 0) failures.delete(key)
  }

  return {
    attempt({ email, ip }) {
      const at = now()
      const keys = [`email:${email.trim().toLowerCase()}`, ...(ip ? [`ip:${ip}`] : [])]
      let retryAfterMs = 0
      for (const key of keys) {
        const list = recent(key, at)
        const limit = limitOf(key)
        if (list.length >= limit) {
          // blocked until enough of the failures age out to leave room for one more
          const freesAt = list[list.length - limit] + windowMs
          retryAfterMs = Math.max(retryAfterMs, freesAt - at)
        }
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs }
      for (const key of keys) record(key, at)
      let settled = false
      return {
        allowed: true,
        succeeded() {
          if (settled) return
          settled = true
          failures.delete(keys[0])
          if (keys[1]) unrecord(keys[1], at)
        },
      }
    },
    reset() {
      failures.clear()
    },
  }
}
