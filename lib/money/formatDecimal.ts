import { assertDecimals } from './parseDecimal'

export type FormatDecimalParameters = {
  /** how many fraction digits the unit has: 3 for milli-ounces, 18 for wei */
  decimals: number
  /**
   * fraction digits always shown (padded with zeros); trailing zeros beyond it are
   * dropped. Defaults to 0, the shortest exact form. Use `decimals` for a fixed width.
   */
  minFraction?: number
}

export type FormatDecimalReturnType = string

/**
 * Writes an integer count of the smallest unit as an exact decimal string:
 * `formatDecimal(401084n, { decimals: 3, minFraction: 3 })` is `'401.084'`.
 * The inverse of parseDecimal for non-negative values; negative values get a '-'.
 */
export function formatDecimal(
  value: bigint,
  { decimals, minFraction = 0 }: FormatDecimalParameters,
): FormatDecimalReturnType {
  assertDecimals(decimals)
  if (typeof value !== 'bigint') throw new TypeError('formatDecimal takes a bigint')
  if (!Number.isInteger(minFraction) || minFraction < 0 || minFraction > decimals) {
    throw new RangeError(`minFraction must be an integer from 0 to ${decimals}, got ${minFraction}`)
  }
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  let fraction = digits.slice(digits.length - decimals)
  let end = fraction.length
  while (end > minFraction && fraction[end - 1] === '0') end--
  fraction = fraction.slice(0, end)
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
