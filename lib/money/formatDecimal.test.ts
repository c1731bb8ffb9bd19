import { describe, expect, it } from 'vitest'
import { formatDecimal } from './formatDecimal'

describe('formatDecimal', () => {
  it.each([
    [401084n, 3, undefined, '401.084'],
    [401000n, 3, undefined, '401'],
    [401000n, 3, 3, '401.000'],
    [401100n, 3, 1, '401.1'],
    [99990n, 2, 1, '999.9'],
    [90000n, 2, 1, '900.0'],
    [1n, 3, 0, '0.001'],
    [0n, 3, 0, '0'],
    [0n, 3, 3, '0.000'],
    [-1500n, 3, 0, '-1.5'],
    [802168000000000000000n, 18, 0, '802.168'],
    [42n, 0, 0, '42'],
  ])('formats %s with %i decimals (min %s)', (value, decimals, minFraction, expected) => {
    expect(formatDecimal(value, { decimals, minFraction })).toBe(expected)
  })

  it('refuses a minFraction beyond the decimals', () => {
    expect(() => formatDecimal(1n, { decimals: 2, minFraction: 3 })).toThrow(RangeError)
  })
})
