import { type OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { overLimitError } from './overLimitError'

export type MintControlsRefusalParameters = {
  /** the refusal's code as public.check_mint_controls returns it (null: the order passes) */
  refusal: string | null
  /** its JSON detail (over_limit: limit, amountWei, limitWei, usedWei as decimal strings) */
  detail: unknown
  /** the recipient as the caller gave it: the error names it so */
  to: string
}

/**
 * The error of a refusal of the mint controls, whose one home is the SQL function
 * public.check_mint_controls (db/functions/check_mint_controls.sql): the same class,
 * code, status and message at every gate, whether the refusal came back as its row
 * (checkMintControls: approval, worker) or raised by create_mint_order (intakeRefusal).
 * Null when the order passes or the code is not one of the controls'.
 */
export function mintControlsRefusal(
  p: MintControlsRefusalParameters,
): RecipientNotAllowedError | OverLimitError | null {
  if (p.refusal === 'recipient_not_allowed') return new RecipientNotAllowedError({ to: p.to })
  if (p.refusal !== 'over_limit') return null
  const d = typeof p.detail === 'object' && p.detail !== null ? (p.detail as Record<string, unknown>) : {}
  return overLimitError({
    limit: d.limit === 'daily_cap' ? 'daily_cap' : 'max_order',
    amountWei: BigInt(String(d.amountWei)),
    limitWei: BigInt(String(d.limitWei)),
    usedWei: d.usedWei === undefined ? undefined : BigInt(String(d.usedWei)),
  })
}
