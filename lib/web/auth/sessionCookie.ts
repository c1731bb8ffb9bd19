import { getConfig } from '@/lib/web/config/getConfig'

/**
 * The session cookie's name (`__Secure-` in production) and the secret it is encrypted
 * with: for next-auth's config (lib/web/auth/nextAuthConfig.ts) and for the code that reads
 * the cookie without next-auth (lib/web/auth/readSessionClaims.ts). Imports nothing of
 * next-auth, so the proxy and the tests load it anywhere.
 */
export function sessionCookie(): { cookieName: string; secret: string } {
  const config = getConfig('web')
  return { cookieName: `${config.production ? '__Secure-' : ''}authjs.session-token`, secret: config.authSecret }
}
