import { ApprovalMissingError } from '@/lib/errors/approvals'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { controlChangedEventIn } from '../chain/controlChangedEventIn'
import { type ControlChangeRow, lockControlChanges } from '../db/lockControlChanges'
import {
  markControlChangeFailed,
  markControlChangesApplied,
  markControlChangesSubmitted,
} from '../db/markControlChanges'
import { checkStoredControlChangeCall } from './controlChange/checkStoredControlChangeCall'
import { prepareControlChangeCalls } from './controlChange/prepareControlChangeCalls'
import { readAdminRules } from './controlChange/readAdminRules'
import { reconcileAppliedChange } from './controlChange/reconcileAppliedChange'
import { NO_OPERATION, type OperationKind } from './OperationKind'

/** the statuses a control change is sent in: confirmed by a second admin (pending), or in flight */
const SENDABLE = new Set(['pending', 'submitted'])

/**
 * A control change that lives on chain, an operation of the one send pipeline
 * (docs/decisions/051-on-chain-control-changes.md): a row of control_changes, referenced by
 * control_change_id, its admins' signatures in control_change_signatures, sent as
 * GoldMinter.applyControlChange. GoldMinter applies it only with its admin threshold of valid
 * admin signatures: the worker's key relays it and can change nothing alone.
 */
export const controlChangeKind: OperationKind<ControlChangeRow> = {
  kind: 'control_change',
  noun: 'control change',
  sendTask: TASK.controlSend,
  reference: ({ id }) => ({ ...NO_OPERATION, controlChangeId: id }),
  lock: (db, { ids, lock }) => lockControlChanges(db, { ids, lock }),
  done: 'applied',
  settledOf: ({ row }) => (row.status === 'applied' || row.status === 'rejected' ? row.status : null),
  refusalOf: ({ row }) =>
    SENDABLE.has(row.status) ? null : `control change ${row.id} is ${row.status}, not confirmed for sending`,
  prepareCalls: async (ctx, { rows }) => {
    const rules = await readAdminRules(ctx)
    const settled = await prepareControlChangeCalls(ctx, ctx.db, { rows, rules })
    const byId = new Map(rows.map((r, i) => [r.id, settled[i]]))
    return async ({ row }) => {
      const result = byId.get(row.id)
      if (!result) throw new Error(`control change ${row.id} was not prepared`)
      if (result.status === 'rejected') throw result.reason
      return result.value
    }
  },
  alreadyDone: 'ChangeAlreadyApplied',
  reconcile: reconcileAppliedChange,
  openSigning: (ctx) => {
    const rules = readAdminRules(ctx)
    rules.catch(() => {})
    return {
      lock: (tx, { ids }) => lockControlChanges(tx, { ids, lock: true }),
      check: async (tx, { rows }) => {
        const refused = rows.map((row) => controlChangeKind.refusalOf({ row }))
        const open = rows.filter((_, i) => refused[i] === null)
        const built = await prepareControlChangeCalls(ctx, tx, { rows: open, rules: await rules })
        let next = 0
        return rows.map((_, i): PromiseSettledResult<`0x${string}`> => {
          const why = refused[i]
          if (why) return { status: 'rejected', reason: new ApprovalMissingError(why) }
          const result = built[next++]
          if (!result) throw new Error('a control change was not built')
          return result
        })
      },
    }
  },
  checkStoredCall: checkStoredControlChangeCall,
  replaced: async () => {},
  markSubmitted: async (tx, { rows }) => {
    await markControlChangesSubmitted(tx, { ids: rows.map((r) => r.id), from: ['pending', 'failed'] })
  },
  eventIn: (ctx, { receipt, id }) => controlChangedEventIn({ receipt, minterAddress: ctx.minterAddress, changeId: id }),
  markConfirmed: (tx, { done }) => markControlChangesApplied(tx, { done }),
  reopen: async (tx, { id }) =>
    (await markControlChangesSubmitted(tx, { ids: [id], from: ['pending', 'failed'] })).length > 0,
  handOver: async (tx, _ctx, { id, actor, detail }) => {
    // its nonce is used (by its own reverted call, or a transaction not ours): failed; an admin's
    // retry sends it again at a new nonce, and GoldMinter applies a change id once
    if (await markControlChangeFailed(tx, { id, reason: detail, from: ['submitted'] }))
      await recordJobEvent(tx, { event: 'failed', task: TASK.controlSend, orderId: id, actor, detail })
  },
  reorged: async (tx, { id }) => {
    await markControlChangesSubmitted(tx, { ids: [id], from: ['applied'] })
  },
}
