import { InvalidDecimalError } from '@/lib/errors/money'
import { formatDecimal } from './formatDecimal'
import { OZ_DECIMALS, WEI_PER_MILLI_OZ } from './units'

export type WeiToOzReturnType = string

/**
 * Token base units (wei) to a fine-ounce string with exactly 3 decimals ('802.168').
 * Throws InvalidDecimalError when the amount is negative or not a whole number of
 * milli-ounces, instead of rounding it away.
 */
export function weiToOz(wei: bigint): WeiToOzReturnType {
  if (wei < 0n) throw new InvalidDecimalError({ value: wei.toString(), reason: 'negative amount' })
  if (wei % WEI_PER_MILLI_OZ !== 0n) {
    throw new InvalidDecimalError({ value: wei.toString(), reason: 'not a whole number of milli-ounces' })
  }
  return formatDecimal(wei / WEI_PER_MILLI_OZ, { decimals: OZ_DECIMALS, minFraction: OZ_DECIMALS })
}
