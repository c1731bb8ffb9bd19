import { ApprovalMissingError } from '@/lib/errors/approvals'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { readMinterRules } from '../approvals/readMinterRules'
import { complianceEventIn } from '../chain/complianceEventIn'
import { type ComplianceOperationRow, lockComplianceOperations } from '../db/lockComplianceOperations'
import {
  markComplianceOperationFailed,
  markComplianceOperationsApplied,
  markComplianceOperationsSubmitted,
} from '../db/markComplianceOperations'
import { checkStoredComplianceCall } from './compliance/checkStoredComplianceCall'
import { prepareComplianceCalls } from './compliance/prepareComplianceCalls'
import { reconcileUsedOperation } from './compliance/reconcileUsedOperation'
import { NO_OPERATION, type OperationKind } from './OperationKind'

/** the statuses a compliance operation is sent in: signed enough (pending), or in flight */
const SENDABLE = new Set(['pending', 'submitted'])

/** the statuses the pipeline is done with an operation in */
const SETTLED = new Set(['applied', 'rejected', 'cancelled'])

/**
 * A freeze, unfreeze, pause or unpause of the token, an operation of the one send pipeline
 * (docs/decisions/056-compliance-operations.md): a row of compliance_operations, referenced by
 * compliance_operation_id, its approvers' signatures in compliance_signatures, sent as GoldMinter.setFrozen or
 * setPaused. GoldMinter acts only with complianceApprovals valid approver signatures over the intent, once per
 * operation id: the worker's key relays it and can freeze or pause nothing alone.
 */
export const complianceKind: OperationKind<ComplianceOperationRow> = {
  kind: 'compliance',
  noun: 'compliance operation',
  sendTask: TASK.complianceSend,
  reference: ({ id }) => ({ ...NO_OPERATION, complianceOperationId: id }),
  lock: (db, { ids, lock }) => lockComplianceOperations(db, { ids, lock }),
  done: 'applied',
  settledOf: ({ row }) => (SETTLED.has(row.status) ? row.status : null),
  refusalOf: ({ row }) =>
    SENDABLE.has(row.status) ? null : `compliance operation ${row.id} is ${row.status}, not signed for sending`,
  prepareCalls: async (ctx, { rows }) => {
    const rules = await readMinterRules(ctx)
    const settled = await prepareComplianceCalls(ctx, ctx.db, { rows, rules })
    const byId = new Map(rows.map((r, i) => [r.id, settled[i]]))
    return async ({ row }) => {
      const result = byId.get(row.id)
      if (!result) throw new Error(`compliance operation ${row.id} was not prepared`)
      if (result.status === 'rejected') throw result.reason
      return result.value
    }
  },
  alreadyDone: 'OperationAlreadyUsed',
  reconcile: reconcileUsedOperation,
  openSigning: (ctx) => {
    const rules = readMinterRules(ctx)
    rules.catch(() => {})
    return {
      lock: (tx, { ids }) => lockComplianceOperations(tx, { ids, lock: true }),
      check: async (tx, { rows }) => {
        const refused = rows.map((row) => complianceKind.refusalOf({ row }))
        const open = rows.filter((_, i) => refused[i] === null)
        const built = await prepareComplianceCalls(ctx, tx, { rows: open, rules: await rules })
        let next = 0
        return rows.map((_, i): PromiseSettledResult<`0x${string}`> => {
          const why = refused[i]
          if (why) return { status: 'rejected', reason: new ApprovalMissingError(why) }
          const result = built[next++]
          if (!result) throw new Error('a compliance operation was not built')
          return result
        })
      },
    }
  },
  checkStoredCall: checkStoredComplianceCall,
  replaced: async () => {},
  markSubmitted: async (tx, { rows }) => {
    await markComplianceOperationsSubmitted(tx, { ids: rows.map((r) => r.id), from: ['pending', 'failed'] })
  },
  eventIn: (ctx, { receipt, id }) => complianceEventIn({ receipt, minterAddress: ctx.minterAddress, operationId: id }),
  markConfirmed: (tx, { done }) => markComplianceOperationsApplied(tx, { done }),
  reopen: async (tx, { id }) =>
    (await markComplianceOperationsSubmitted(tx, { ids: [id], from: ['pending', 'failed', 'cancelled'] })).length > 0,
  handOver: async (tx, _ctx, { id, actor, detail }) => {
    // its nonce is used (by its own reverted call, or a transaction not ours): failed; an admin's retry sends it
    // again at a new nonce, and GoldMinter uses an operation id once
    if (await markComplianceOperationFailed(tx, { id, reason: detail, code: 'reverted', from: ['submitted'] }))
      await recordJobEvent(tx, { event: 'failed', task: TASK.complianceSend, orderId: id, actor, detail })
  },
  reorged: async (tx, { id }) => {
    await markComplianceOperationsSubmitted(tx, { ids: [id], from: ['applied'] })
  },
}
