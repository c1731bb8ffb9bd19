/**
 * The login throttle's limits (lib/web/auth/beginLoginAttempt.ts, docs/decisions/038): failed
 * sign-ins are counted in Postgres (`login_failures`), by every web process alike, within a
 * sliding window, per account AND source (an attacker's failures lock that account out from
 * the attacker's address only, never from the account holder's), and per source across
 * accounts (one address spraying guesses over many accounts). The source is the client's
 * address (lib/web/auth/loginSource.ts: an IPv6 one by its /64).
 */
export type LoginThrottleLimits = {
  /** failures allowed for one account from one source within the window */
  perAccountAndSource: number
  /** failures allowed from one source, whatever the accounts, within the window (everyone behind one NAT shares it) */
  perSource: number
  windowMs: number
}

/** 5 per account and source, 20 per source, in 15 minutes. */
export const LOGIN_THROTTLE: LoginThrottleLimits = { perAccountAndSource: 5, perSource: 20, windowMs: 15 * 60 * 1000 }
