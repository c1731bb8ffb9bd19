import type { Config } from '@/lib/config/loadConfig'

export type AuthMethods = { credentials: boolean; oidc: boolean }

/**
 * Which sign-in methods are on. OIDC when configured. Email + password in dev mode, and
 * in production only while no OIDC provider is configured (so a production deployment
 * with SSO cannot be brute-forced through passwords); see docs/decisions/004-next-auth-v5.md.
 */
export function authMethods(config: Pick<Config, 'production' | 'oidc'>): AuthMethods {
  const oidc = config.oidc !== undefined
  return { oidc, credentials: !config.production || !oidc }
}
