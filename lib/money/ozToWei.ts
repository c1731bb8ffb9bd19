import { parseDecimal } from './parseDecimal'
import { OZ_DECIMALS, WEI_PER_MILLI_OZ } from './units'

export type OzToWeiReturnType = bigint

/**
 * A fine-ounce amount with at most 3 decimals ('802.168') to token base units (wei):
 * 1 token = 1 fine troy ounce, so wei = milli-ounces x 10^15. Exact; throws
 * InvalidDecimalError on anything that is not a plain decimal with at most 3 decimals.
 */
export function ozToWei(oz: string): OzToWeiReturnType {
  return parseDecimal(oz, { decimals: OZ_DECIMALS }) * WEI_PER_MILLI_OZ
}
