import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ValidationError } from '@/lib/web/errors'
import { decodeMintOrderCursor, encodeMintOrderCursor } from './mintOrderCursor'

describe('mint order cursor', () => {
  it('round-trips, keeping microseconds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }), fc.uuid(), (createdAtMicros, id) => {
        const cursor = encodeMintOrderCursor({ createdAtMicros, id })
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
        expect(decodeMintOrderCursor(cursor)).toEqual({ createdAtMicros, id: id.toLowerCase() })
      }),
    )
  })

  it.each([
    '',
    'not base64!',
    Buffer.from('123').toString('base64url'),
    Buffer.from('abc.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url'),
    Buffer.from('123.0b9f3c1e').toString('base64url'),
    Buffer.from('-1.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url'),
    `${Buffer.from('1.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url')}=`,
    'A'.repeat(200),
    // past the bigint range, and past any timestamp a cursor of ours can carry
    Buffer.from('9999999999999999999.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url'),
    Buffer.from('253402300800000000.0b9f3c1e-0000-4000-8000-000000000001').toString('base64url'),
  ])('rejects %j with a 422 on cursor', (value) => {
    expect(() => decodeMintOrderCursor(value)).toThrow(ValidationError)
    try {
      decodeMintOrderCursor(value)
    } catch (error) {
      expect((error as ValidationError).issues).toEqual([{ path: 'cursor', message: 'is not a valid cursor' }])
    }
  })
})
