export type CheckOidcProfileParameters = {
  /** the ID token's claims (merged with userinfo) as next-auth hands them to its callbacks */
  profile: Record<string, unknown> | null | undefined
}

export type OidcProfileRefusal = 'no_email' | 'email_not_verified' | 'no_subject'

export type CheckOidcProfileReturnType =
  | { ok: true; email: string; subject: string }
  | { ok: false; reason: OidcProfileRefusal }

/**
 * What an OIDC sign-in must carry before any user is looked up: an email the provider
 * vouches for (`email_verified === true`; absent, false or the string "true" all refuse,
 * since an unverified email could be anyone's) and a subject (`sub`) to bind the user to.
 */
export function checkOidcProfile({ profile }: CheckOidcProfileParameters): CheckOidcProfileReturnType {
  const email = profile?.email
  if (typeof email !== 'string' || email.trim() === '') return { ok: false, reason: 'no_email' }
  if (profile?.email_verified !== true) return { ok: false, reason: 'email_not_verified' }
  const subject = profile.sub
  if (typeof subject !== 'string' || subject === '') return { ok: false, reason: 'no_subject' }
  return { ok: true, email: email.trim().toLowerCase(), subject }
}
