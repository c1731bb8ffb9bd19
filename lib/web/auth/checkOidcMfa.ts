import type { UserRole } from './SessionUser'

/** The roles that sign in through OIDC only with a second factor: those who approve, operate and audit. */
export const MFA_ROLES: readonly UserRole[] = ['approver', 'admin', 'auditor']

/**
 * The `amr` values (RFC 8176) that say a second factor was used: `mfa` (multiple factors),
 * `otp` (a one-time password), `hwk` and `swk` (proof of a hardware or software key, a
 * security key or a passkey among them). `pwd` alone, `sms` or `kba` do not count.
 */
export const MFA_AMR_VALUES: readonly string[] = ['mfa', 'otp', 'hwk', 'swk']

/**
 * The `error` the login page is sent with when an OIDC sign-in is refused for want of a second
 * factor (`/login?error=mfa_required`).
 */
export const MFA_REQUIRED_ERROR = 'mfa_required'

export type CheckOidcMfaParameters = {
  /** the ID token's claims, as next-auth hands them to its callbacks */
  profile: Record<string, unknown> | null | undefined
  /** the user's role, from their row */
  role: UserRole
  /** the `acr` values that count as multi-factor at this provider (OIDC_MFA_ACR); empty: only `amr` counts */
  acrValues: readonly string[]
}

export type CheckOidcMfaReturnType = { ok: true } | { ok: false; reason: 'mfa_required' }

/**
 * Whether an OIDC sign-in may go on as far as multi-factor authentication goes: a user
 * whose role is in MFA_ROLES needs an ID token whose `amr` (an array of strings) holds one
 * of MFA_AMR_VALUES, or whose `acr` is one of `acrValues`; anyone else needs neither.
 * Anything else (no claim, `amr` not an array, an `acr` not listed) refuses.
 *
 * @example
 * checkOidcMfa({ profile: { amr: ['pwd', 'otp'] }, role: 'approver', acrValues: [] }) // { ok: true }
 */
export function checkOidcMfa({ profile, role, acrValues }: CheckOidcMfaParameters): CheckOidcMfaReturnType {
  if (!MFA_ROLES.includes(role)) return { ok: true }
  const amr = profile?.amr
  if (Array.isArray(amr) && amr.some((v) => typeof v === 'string' && MFA_AMR_VALUES.includes(v))) return { ok: true }
  const acr = profile?.acr
  if (typeof acr === 'string' && acrValues.includes(acr)) return { ok: true }
  return { ok: false, reason: 'mfa_required' }
}
