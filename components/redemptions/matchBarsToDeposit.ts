import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { OZ_DECIMALS } from '@/lib/money/units'

export type MatchBarsToDepositParameters = {
  /** the deposit's amount as the API gives it: fine oz with 3 decimals ('802.168') */
  depositOz: string
  /** the bars picked so far, each with its fine weight ('401.084') */
  bars: readonly { fineOz: string }[]
}

export type MatchBarsToDepositReturnType = {
  /**
   * empty: no bar yet; short: the bars weigh less than the deposit; over: more; equal: exactly the deposit's
   * amount, the only state a request may be sent in; unmatchable: the deposit is no whole number of milli-ounces
   * (no set of bars can equal it)
   */
  state: 'empty' | 'short' | 'over' | 'equal' | 'unmatchable'
  /** the bars' fine weight, 3 decimals */
  pickedOz: string
  /** how far the bars are from the deposit (deposit less bars; negative when over), 3 decimals */
  remainingOz: string
}

/**
 * The running fine weight of the bars picked for a redemption against its deposit, exactly (bigint
 * milli-ounces, never a float): whole bars must weigh exactly what the holder deposited.
 *
 * @example
 * matchBarsToDeposit({ depositOz: '802.168', bars: [{ fineOz: '401.084' }] })
 * // { state: 'short', pickedOz: '401.084', remainingOz: '401.084' }
 */
export function matchBarsToDeposit({ depositOz, bars }: MatchBarsToDepositParameters): MatchBarsToDepositReturnType {
  const oz = (milli: bigint) => formatDecimal(milli, { decimals: OZ_DECIMALS, minFraction: OZ_DECIMALS })
  const picked = bars.reduce((sum, bar) => sum + parseDecimal(bar.fineOz, { decimals: OZ_DECIMALS }), 0n)
  let deposit: bigint
  try {
    deposit = parseDecimal(depositOz, { decimals: OZ_DECIMALS })
  } catch {
    return { state: 'unmatchable', pickedOz: oz(picked), remainingOz: depositOz }
  }
  const remaining = deposit - picked
  const state = bars.length === 0 ? 'empty' : remaining === 0n ? 'equal' : remaining > 0n ? 'short' : 'over'
  return { state, pickedOz: oz(picked), remainingOz: oz(remaining) }
}
