import { describe, expect, it } from 'vitest'
import { InvalidDecimalError } from '@/lib/errors/money'
import { ozToWei } from './ozToWei'
import { weiToOz } from './weiToOz'

describe('ozToWei / weiToOz', () => {
  it('converts 1 fine ounce to 1 token (10^18 wei)', () => {
    expect(ozToWei('1')).toBe(10n ** 18n)
    expect(ozToWei('802.168')).toBe(802_168n * 10n ** 15n)
    expect(ozToWei('0.001')).toBe(10n ** 15n)
  })

  it('writes wei back with exactly 3 decimals', () => {
    expect(weiToOz(802_168n * 10n ** 15n)).toBe('802.168')
    expect(weiToOz(10n ** 18n)).toBe('1.000')
    expect(weiToOz(0n)).toBe('0.000')
  })

  it('rejects more than 3 decimals instead of rounding', () => {
    expect(() => ozToWei('1.0001')).toThrow(InvalidDecimalError)
  })

  it('rejects wei that is not a whole milli-ounce, and negative wei', () => {
    expect(() => weiToOz(10n ** 15n + 1n)).toThrow(InvalidDecimalError)
    expect(() => weiToOz(-(10n ** 15n))).toThrow(InvalidDecimalError)
  })
})
