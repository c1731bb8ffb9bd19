import { describe, expect, it } from 'vitest'
import { ACCESS_DENIED_MESSAGE, loginErrorMessage, MFA_REQUIRED_MESSAGE, THROTTLED_MESSAGE } from './loginMessages'

describe('loginErrorMessage', () => {
  it('says why a sign-in was refused: a missing second factor, throttling, no access', () => {
    expect(loginErrorMessage('mfa_required', undefined)).toBe(MFA_REQUIRED_MESSAGE)
    expect(loginErrorMessage('CredentialsSignin', 'throttled')).toBe(THROTTLED_MESSAGE)
    expect(loginErrorMessage('AccessDenied', undefined)).toBe(ACCESS_DENIED_MESSAGE)
    expect(loginErrorMessage(undefined, undefined)).toBeNull()
  })
})
