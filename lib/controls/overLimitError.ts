import { type MintLimitKind, OverLimitError } from '@/lib/errors/controls'
import { formatDecimal } from '@/lib/money/formatDecimal'

export type OverLimitErrorParameters = {
  limit: MintLimitKind
  /** the order's amount, in wei */
  amountWei: bigint
  limitWei: bigint
  /** daily_cap: the rolling 24 h total of the other orders, in wei */
  usedWei?: bigint
}

/**
 * THE OverLimitError of the mint controls, with its message in fine oz: one wording for
 * every gate (public.check_mint_controls' refusal, mapped by lib/controls/mintControlsRefusal.ts
 * for checkMintControls and for the intake's lib/web/mint/intakeRefusal.ts).
 */
export function overLimitError(p: OverLimitErrorParameters): OverLimitError {
  if (p.limit === 'max_order') {
    return new OverLimitError({
      limit: 'max_order',
      amountWei: p.amountWei,
      limitWei: p.limitWei,
      message: `The order of ${oz(p.amountWei)} oz is above the per-order limit of ${oz(p.limitWei)} oz.`,
    })
  }
  const usedWei = p.usedWei ?? 0n
  return new OverLimitError({
    limit: 'daily_cap',
    amountWei: p.amountWei,
    limitWei: p.limitWei,
    usedWei,
    message: `The order of ${oz(p.amountWei)} oz would pass the rolling 24 h cap of ${oz(p.limitWei)} oz: ${oz(usedWei)} oz were minted or requested in the last 24 hours, ${oz(p.limitWei - usedWei > 0n ? p.limitWei - usedWei : 0n)} oz remain.`,
  })
}

/** wei as fine ounces, at least 3 decimals, exact. */
function oz(wei: bigint): string {
  return formatDecimal(wei, { decimals: 18, minFraction: 3 })
}
