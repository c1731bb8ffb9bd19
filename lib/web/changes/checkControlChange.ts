import type { DbOrTx } from '@/db/client'
import type { AdminActor } from '@/lib/admin/recordAudit'
import type { ParsedControlChange } from './controlChangeParams'
import type { ControlChangeStepContext } from './controlChangeStep'
import { limitsSetStep } from './limitsSetStep'
import { recipientAddStep } from './recipientAddStep'
import { recipientRemoveStep } from './recipientRemoveStep'
import { signingResumeStep } from './signingResumeStep'
import { userRoleStep } from './userRoleStep'

export type CheckControlChangeParameters = {
  change: ParsedControlChange
  author: AdminActor
  context: ControlChangeStepContext
}

/** A change's kind's `check` (lib/web/changes/<kind>Step.ts): throws what the direct change would. */
export async function checkControlChange(db: DbOrTx, { change, author, context }: CheckControlChangeParameters) {
  switch (change.kind) {
    case 'recipient.add':
      return recipientAddStep.check(db, { params: change.params, author, context })
    case 'recipient.remove':
      return recipientRemoveStep.check(db, { params: change.params, author, context })
    case 'limits.set':
      return limitsSetStep.check(db, { params: change.params, author, context })
    case 'user.role':
      return userRoleStep.check(db, { params: change.params, author, context })
    case 'signing.resume':
      return signingResumeStep.check(db, { params: change.params, author, context })
    default:
      // a change that lives on chain: its params are its whole check here; GoldMinter's simulation
      // (the worker's, before it takes a nonce) refuses what the chain's state does not allow
      return
  }
}
