import type { Tx } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import type { ApiControlChangeResult } from './apiTypes'
import type { ParsedControlChange } from './controlChangeParams'
import type { ControlChangeStepContext } from './controlChangeStep'
import { limitsSetStep } from './limitsSetStep'
import { recipientAddStep } from './recipientAddStep'
import { recipientRemoveStep } from './recipientRemoveStep'
import { signingResumeStep } from './signingResumeStep'
import { userRoleStep } from './userRoleStep'

export type ApplyControlChangeParameters = {
  changeId: string
  change: ParsedControlChange
  author: AdminActor
  confirmer: AdminActor
  context: ControlChangeStepContext
}

/** A change's kind's `apply` (lib/web/changes/<kind>Step.ts), in the confirming transaction. */
export async function applyControlChange(
  tx: Tx,
  { change, ...p }: ApplyControlChangeParameters,
): Promise<ApiControlChangeResult> {
  switch (change.kind) {
    case 'recipient.add':
      return recipientAddStep.apply(tx, { ...p, params: change.params })
    case 'recipient.remove':
      return recipientRemoveStep.apply(tx, { ...p, params: change.params })
    case 'limits.set':
      return limitsSetStep.apply(tx, { ...p, params: change.params })
    case 'user.role':
      return userRoleStep.apply(tx, { ...p, params: change.params })
    case 'signing.resume':
      return signingResumeStep.apply(tx, { ...p, params: change.params })
    default:
      throw new Error(`${change.kind} lives on chain: the worker applies it (signOnChainChange queues it)`)
  }
}
