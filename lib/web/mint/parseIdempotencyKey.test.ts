import { describe, expect, it } from 'vitest'
import { ValidationError } from '@/lib/web/errors'
import { parseIdempotencyKey } from './parseIdempotencyKey'

describe('parseIdempotencyKey', () => {
  it('is optional', () => {
    expect(parseIdempotencyKey(new Headers())).toBeNull()
  })

  it.each(['a', 'k'.repeat(128), crypto.randomUUID(), 'order 42 / retry'])('accepts %j', (key) => {
    expect(parseIdempotencyKey(new Headers({ 'idempotency-key': key }))).toBe(key)
  })

  it.each(['', 'k'.repeat(129), 'caf\u00e9'])('rejects %j with a 422 on the header', (key) => {
    const headers = new Headers({ 'idempotency-key': key })
    expect(() => parseIdempotencyKey(headers)).toThrow(ValidationError)
    expect(() => parseIdempotencyKey(headers)).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: 'Idempotency-Key' })] }),
    )
  })
})
