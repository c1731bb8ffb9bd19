import { formatDecimal } from '@/lib/money/formatDecimal'
import { OZ_DECIMALS, TOKEN_DECIMALS } from '@/lib/money/units'

/**
 * Wei (token base units, 1 token = 1 fine oz) as an exact ounce string with at least 3
 * decimals ('802.168'). Unlike weiToOz it takes any amount: a supply minted outside
 * mintdesk need not be a whole number of milli-ounces, and is shown to the wei.
 */
export function formatOz(wei: bigint): string {
  return formatDecimal(wei, { decimals: TOKEN_DECIMALS, minFraction: OZ_DECIMALS })
}
