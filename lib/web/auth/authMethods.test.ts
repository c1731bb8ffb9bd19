import { describe, expect, it } from 'vitest'
import { authMethods } from './authMethods'

const oidc = { issuer: 'https://idp.test', clientId: 'c', clientSecret: 's', mfaAcrValues: [] }

describe('authMethods', () => {
  it('dev: passwords always, OIDC when configured', () => {
    expect(authMethods({ production: false, oidc: undefined })).toEqual({ credentials: true, oidc: false })
    expect(authMethods({ production: false, oidc })).toEqual({ credentials: true, oidc: true })
  })
  it('production: OIDC only once it is configured', () => {
    expect(authMethods({ production: true, oidc })).toEqual({ credentials: false, oidc: true })
    expect(authMethods({ production: true, oidc: undefined })).toEqual({ credentials: true, oidc: false })
  })
})
