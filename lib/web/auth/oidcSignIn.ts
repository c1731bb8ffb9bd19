import { and, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { type UserRole, users } from '@/db/schema/users'
import { readUserByEmail } from '@/lib/auth/readUserByEmail'
import { checkOidcMfa } from './checkOidcMfa'
import { checkOidcProfile, type OidcProfileRefusal } from './checkOidcProfile'

export type OidcSignInParameters = {
  /** the ID token's claims as next-auth gives them to its `signIn` and `jwt` callbacks */
  profile: Record<string, unknown> | null | undefined
  /** the configured issuer (OIDC_ISSUER), whose tokens next-auth has already validated */
  issuer: string
  /** the `acr` values that count as multi-factor (OIDC_MFA_ACR), besides an `amr` naming a second factor */
  mfaAcrValues: readonly string[]
}

export type OidcSignInRefusal = OidcProfileRefusal | 'unknown_user' | 'disabled' | 'identity_mismatch' | 'mfa_required'

export type OidcSignInReturnType =
  | { ok: true; user: { id: string; email: string; name: string; role: UserRole; sessionVersion: number } }
  | { ok: false; reason: OidcSignInRefusal }

/**
 * Decides an OIDC sign-in (lib/web/auth/nextAuth.ts calls it from `signIn` and `jwt`). The
 * profile must carry a verified email and a subject; the user must already exist (by
 * email; nobody is created here) and not be disabled. At the first OIDC sign-in the user
 * is bound to this issuer and `sub` (users.oidc_issuer/oidc_subject); from then on only
 * that identity signs in as them: the same email from another issuer or another `sub`
 * (an account re-created at the provider, a second provider) is refused. An approver or
 * admin must have signed in at the provider with a second factor (checkOidcMfa: `amr`, or
 * an `acr` of `mfaAcrValues`), else `mfa_required`, checked after the identity and before
 * a first binding (a refused sign-in binds nothing). Idempotent.
 */
export async function oidcSignIn(
  db: DbOrTx,
  { profile, issuer, mfaAcrValues }: OidcSignInParameters,
): Promise<OidcSignInReturnType> {
  const checked = checkOidcProfile({ profile })
  if (!checked.ok) return checked
  const user = await readUserByEmail(db, { email: checked.email })
  if (!user) return { ok: false, reason: 'unknown_user' }
  if (user.disabled) return { ok: false, reason: 'disabled' }
  const boundElsewhere =
    user.oidcIssuer !== null && (user.oidcIssuer !== issuer || user.oidcSubject !== checked.subject)
  if (boundElsewhere) return { ok: false, reason: 'identity_mismatch' }
  const mfa = checkOidcMfa({ profile, role: user.role, acrValues: mfaAcrValues })
  if (!mfa.ok) return mfa

  let bound = { issuer: user.oidcIssuer, subject: user.oidcSubject }
  if (bound.issuer === null) {
    // first OIDC sign-in: bind, unless a concurrent sign-in bound it first (then compare with that)
    const [row] = await bindIdentity(db, { userId: user.id, issuer, subject: checked.subject })
    bound = row ?? (await boundIdentityOf(db, user.id))
  }
  if (bound.issuer !== issuer || bound.subject !== checked.subject) return { ok: false, reason: 'identity_mismatch' }
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
  }
}

type Identity = { issuer: string | null; subject: string | null }

async function bindIdentity(db: DbOrTx, p: { userId: string; issuer: string; subject: string }): Promise<Identity[]> {
  try {
    return await db
      .update(users)
      .set({ oidcIssuer: p.issuer, oidcSubject: p.subject, updatedAt: new Date() })
      .where(and(eq(users.id, p.userId), isNull(users.oidcIssuer)))
      .returning({ issuer: users.oidcIssuer, subject: users.oidcSubject })
  } catch (error) {
    // users_oidc_identity_key: this identity is already bound to another user
    if (pgCode(error) === '23505') return [{ issuer: null, subject: null }]
    throw error
  }
}

async function boundIdentityOf(db: DbOrTx, userId: string): Promise<Identity> {
  const [row] = await db
    .select({ issuer: users.oidcIssuer, subject: users.oidcSubject })
    .from(users)
    .where(eq(users.id, userId))
  return row ?? { issuer: null, subject: null }
}

function pgCode(error: unknown): unknown {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    if ('code' in e && typeof (e as { code: unknown }).code === 'string') return (e as { code: string }).code
  }
  return undefined
}
