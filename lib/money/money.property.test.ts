import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatDecimal } from './formatDecimal'
import { ozToWei } from './ozToWei'
import { parseDecimal } from './parseDecimal'
import { weiToOz } from './weiToOz'

// An independent way to write n thousandths as a decimal string (no shared code with
// formatDecimal): whole part, a dot, three digits.
function thousandthsToString(n: bigint): string {
  const whole = n / 1000n
  const frac = (n % 1000n).toString().padStart(3, '0')
  return `${whole}.${frac}`
}

const milliOz = fc.bigInt({ min: 0n, max: 10n ** 12n })
const decimals = fc.integer({ min: 0, max: 30 })

describe('money properties', () => {
  it('format then parse returns the same value, for any decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), decimals, (value, d) => {
        for (const minFraction of [0, d]) {
          expect(parseDecimal(formatDecimal(value, { decimals: d, minFraction }), { decimals: d })).toBe(value)
        }
      }),
    )
  })

  it('parse then format returns the canonical string', () => {
    const canonical = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.stringMatching(/^[0-9]{0,3}$/))
      .map(([w, f]) => (f === '' ? w.toString() : `${w}.${f}`))
    fc.assert(
      fc.property(canonical, (s) => {
        const parsed = parseDecimal(s, { decimals: 3 })
        // the fixed-width form pads the fraction with zeros, nothing else changes
        const [w, f = ''] = s.split('.')
        expect(formatDecimal(parsed, { decimals: 3, minFraction: 3 })).toBe(`${w}.${f.padEnd(3, '0')}`)
      }),
    )
  })

  it('sums of fine weights never drift: bigint sum equals exact decimal arithmetic', () => {
    fc.assert(
      fc.property(fc.array(milliOz, { minLength: 1, maxLength: 100 }), (weights) => {
        const strings = weights.map(thousandthsToString)
        const exact = weights.reduce((a, b) => a + b, 0n)
        const summed = strings.map((s) => parseDecimal(s, { decimals: 3 })).reduce((a, b) => a + b, 0n)
        expect(summed).toBe(exact)
        expect(formatDecimal(summed, { decimals: 3, minFraction: 3 })).toBe(thousandthsToString(exact))
        // and the same holds in wei: the sum of the parts is the whole
        const weiSum = strings.map(ozToWei).reduce((a, b) => a + b, 0n)
        expect(weiSum).toBe(ozToWei(thousandthsToString(exact)))
        expect(weiToOz(weiSum)).toBe(thousandthsToString(exact))
      }),
    )
  })

  it('oz -> wei -> oz round-trips', () => {
    fc.assert(
      fc.property(milliOz, (m) => {
        const s = thousandthsToString(m)
        expect(weiToOz(ozToWei(s))).toBe(s)
      }),
    )
  })
})
