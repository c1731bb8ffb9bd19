import { setMintLimits } from '@/lib/controls/setMintLimits'
import { ValidationError } from '@/lib/web/errors/request'
import type { ControlChangeParams } from './controlChangeParams'
import type { ControlChangeStep, ControlChangeStepContext } from './controlChangeStep'

/**
 * `limits.set` `{ maxOrderOz, dailyCapOz }`: sets both mint limits (fine oz; null:
 * unlimited). In production neither may be unset (422 on the field): a production worker
 * neither starts nor signs without both. The audit row says what the limits were when it
 * was confirmed and what they became.
 */
export const limitsSetStep: ControlChangeStep<'limits.set'> = {
  check: async (_db, { params, context }) => {
    refuseUnsetInProduction(params, context)
  },
  apply: async (tx, { params, context, changeId, author, confirmer }) => {
    refuseUnsetInProduction(params, context)
    return setMintLimits(tx, {
      maxOrderOz: params.maxOrderOz,
      dailyCapOz: params.dailyCapOz,
      actor: confirmer,
      change: { changeId, requestedBy: author.email },
    })
  },
}

function refuseUnsetInProduction(params: ControlChangeParams<'limits.set'>, context: ControlChangeStepContext): void {
  if (!context.production) return
  const unset = (['maxOrderOz', 'dailyCapOz'] as const).filter((field) => params[field] === null)
  if (unset.length > 0) {
    throw new ValidationError(
      unset.map((path) => ({ path, message: 'production signs nothing while a limit is unset: give a limit' })),
    )
  }
}
