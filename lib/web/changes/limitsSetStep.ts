import { setMintLimits } from '@/lib/controls/setMintLimits'
import type { ControlChangeStep } from './controlChangeStep'

/**
 * `limits.set` `{ maxOrderOz, dailyCapOz }`: sets both mint limits (fine oz; null:
 * unlimited). Its params' schema is the whole check; the audit row says what the limits
 * were when it was confirmed and what they became.
 */
export const limitsSetStep: ControlChangeStep<'limits.set'> = {
  check: async () => {},
  apply: async (tx, { params, changeId, author, confirmer }) =>
    setMintLimits(tx, {
      maxOrderOz: params.maxOrderOz,
      dailyCapOz: params.dailyCapOz,
      actor: confirmer,
      change: { changeId, requestedBy: author.email },
    }),
}
