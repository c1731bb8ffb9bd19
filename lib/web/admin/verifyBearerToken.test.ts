import { describe, expect, it } from 'vitest'
import { verifyBearerToken } from './verifyBearerToken'

describe('verifyBearerToken', () => {
  const expected = 's3cret-token'
  it('accepts the exact token, case-insensitive scheme', () => {
    expect(verifyBearerToken({ authorization: 'Bearer s3cret-token', expected })).toBe(true)
    expect(verifyBearerToken({ authorization: 'bearer s3cret-token', expected })).toBe(true)
  })
  it('refuses anything else', () => {
    for (const authorization of [
      null,
      '',
      'Bearer',
      'Bearer ',
      'Basic s3cret-token',
      'Bearer s3cret-toke',
      'Bearer s3cret-token2',
      's3cret-token',
    ]) {
      expect(verifyBearerToken({ authorization, expected })).toBe(false)
    }
  })
  it('lets nobody in when no token is configured', () => {
    expect(verifyBearerToken({ authorization: 'Bearer ', expected: undefined })).toBe(false)
    expect(verifyBearerToken({ authorization: 'Bearer x', expected: '' })).toBe(false)
  })
})
