import { MFA_REQUIRED_ERROR } from '@/lib/web/auth/checkOidcMfa'

/** The login page's error texts (plain module: shared by the server page and the client form). */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.'
export const THROTTLED_MESSAGE =
  'Too many failed sign-in attempts. Wait a while (up to 15 minutes) before trying again.'
export const ACCESS_DENIED_MESSAGE = 'This account is not allowed to use mintdesk. Ask an administrator for access.'
export const SIGN_IN_FAILED_MESSAGE = 'Sign-in failed. Try again, or contact an administrator if it keeps failing.'
export const UNREACHABLE_MESSAGE = 'Sign-in failed: the server could not be reached. Try again.'
export const MFA_REQUIRED_MESSAGE =
  'Approvers and admins must sign in with a second factor. Sign in again at your identity provider with your authenticator or security key; if it does not ask for one, ask your identity provider’s administrators to require it for your account.'

/**
 * next-auth sends errors back to /login as `?error=<type>&code=<code>`
 * (OIDC failures, or a form posted without JavaScript).
 */
export function loginErrorMessage(error: string | undefined, code: string | undefined): string | null {
  if (!error) return null
  if (error === 'CredentialsSignin') return code === 'throttled' ? THROTTLED_MESSAGE : INVALID_CREDENTIALS_MESSAGE
  if (error === 'AccessDenied') return ACCESS_DENIED_MESSAGE
  if (error === MFA_REQUIRED_ERROR) return MFA_REQUIRED_MESSAGE
  return SIGN_IN_FAILED_MESSAGE
}
