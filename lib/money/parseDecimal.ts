import { InvalidDecimalError } from '@/lib/errors/money'

export type ParseDecimalParameters = {
  /** how many fraction digits the unit has: 3 for milli-ounces, 18 for wei */
  decimals: number
}

export type ParseDecimalReturnType = bigint

// Digits, then optionally one dot followed by at least one digit. No sign, no
// exponent, no whitespace, no thousands separators, no leading or trailing dot.
const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/

/**
 * Parses a plain decimal string into an integer count of its smallest unit, exactly:
 * `parseDecimal('401.125', { decimals: 3 })` is `401125n` (milli-ounces). More fraction
 * digits than `decimals` is an error, never a rounding. Never goes through a float.
 */
export function parseDecimal(value: string, { decimals }: ParseDecimalParameters): ParseDecimalReturnType {
  assertDecimals(decimals)
  if (typeof value !== 'string') throw new InvalidDecimalError({ value, reason: 'not a string' })
  const match = DECIMAL.exec(value)
  if (!match) {
    throw new InvalidDecimalError({
      value,
      reason: value === '' ? 'empty' : 'only digits with an optional decimal point are allowed',
    })
  }
  const whole = match[1] ?? ''
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) {
    throw new InvalidDecimalError({
      value,
      reason: decimals === 0 ? 'no decimals are allowed' : `at most ${decimals} decimals are allowed`,
    })
  }
  return BigInt(whole + fraction.padEnd(decimals, '0'))
}

export function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new RangeError(`decimals must be an integer from 0 to 77, got ${decimals}`)
  }
}
