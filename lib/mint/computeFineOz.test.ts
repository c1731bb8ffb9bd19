import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { computeFineOz } from './computeFineOz'

function fine(grossOz: string, fineness: string): string {
  const value = computeFineOz({
    grossMilliOz: parseDecimal(grossOz, { decimals: 3 }),
    finenessHundredths: parseDecimal(fineness, { decimals: 2 }),
  })
  return formatDecimal(value, { decimals: 3, minFraction: 3 })
}

describe('computeFineOz', () => {
  it.each([
    ['401.125', '999.9', '401.084'], // 401.0848875 -> down
    ['400.000', '999.9', '399.960'],
    ['400', '995', '398.000'],
    ['32.150', '999.99', '32.149'], // 32.1496785 -> down
    ['350.001', '900', '315.000'], // 315.0009 -> down
    ['1.000', '999.99', '0.999'], // 0.99999 -> down, never up
    ['0.001', '900', '0.000'],
  ])('%s oz at %s is %s fine oz', (gross, fineness, expected) => {
    expect(fine(gross, fineness)).toBe(expected)
  })

  it('always rounds down: fine x 100000 <= gross x fineness < (fine + 1) x 100000', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 90_000n, max: 99_999n }), (g, f) => {
        const result = computeFineOz({ grossMilliOz: g, finenessHundredths: f })
        expect(result * 100_000n <= g * f).toBe(true)
        expect(g * f < (result + 1n) * 100_000n).toBe(true)
        expect(result <= g).toBe(true)
      }),
    )
  })

  it('refuses negative input', () => {
    expect(() => computeFineOz({ grossMilliOz: -1n, finenessHundredths: 99990n })).toThrow(RangeError)
  })
})
