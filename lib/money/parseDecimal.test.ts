import { describe, expect, it } from 'vitest'
import { InvalidDecimalError } from '@/lib/errors/money'
import { parseDecimal } from './parseDecimal'

describe('parseDecimal', () => {
  it.each([
    ['0', 3, 0n],
    ['1', 3, 1000n],
    ['401.125', 3, 401125n],
    ['401.1', 3, 401100n],
    ['0.001', 3, 1n],
    ['007.5', 3, 7500n],
    ['999.9', 2, 99990n],
    ['999.99', 2, 99999n],
    ['802.168', 18, 802168000000000000000n],
    ['123456789012345678901234567890', 0, 123456789012345678901234567890n],
  ])('parses %s with %i decimals', (input, decimals, expected) => {
    expect(parseDecimal(input, { decimals })).toBe(expected)
  })

  it.each([
    '',
    ' 1',
    '1 ',
    '+1',
    '-1',
    '1e3',
    '1E3',
    '.5',
    '5.',
    '1.2.3',
    '1,000',
    '1_000',
    '0x10',
    'NaN',
    'Infinity',
    '１２', // full-width digits
    '1.2345', // too many decimals for 3
    '\u00a01',
  ])('rejects %j', (input) => {
    expect(() => parseDecimal(input, { decimals: 3 })).toThrow(InvalidDecimalError)
  })

  it('rejects non-strings without coercing them', () => {
    expect(() => parseDecimal(1.5 as unknown as string, { decimals: 3 })).toThrow(InvalidDecimalError)
  })

  it('names the rule that was broken', () => {
    expect(() => parseDecimal('1.2345', { decimals: 3 })).toThrow(/at most 3 decimals/)
    expect(() => parseDecimal('1.5', { decimals: 0 })).toThrow(/no decimals/)
  })

  it('refuses an impossible decimals setting', () => {
    expect(() => parseDecimal('1', { decimals: -1 })).toThrow(RangeError)
    expect(() => parseDecimal('1', { decimals: 1.5 })).toThrow(RangeError)
  })
})
