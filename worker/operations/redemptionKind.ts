import { ApprovalMissingError } from '@/lib/errors/approvals'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import { readMinterRules } from '../approvals/readMinterRules'
import { burnedEventIn } from '../chain/burnedEventIn'
import { lockRedemptions, type RedemptionRow } from '../db/lockRedemptions'
import { markRedemptionFailed, markRedemptionsSubmitted } from '../db/markRedemptions'
import type { WorkerContext } from '../runtime/context'
import { NO_OPERATION, type OperationKind } from './OperationKind'
import { checkStoredBurnCall } from './redemption/checkStoredBurnCall'
import { markRedemptionsBurnedWithEvent } from './redemption/markRedemptionsBurnedWithEvent'
import { type BurnChainRules, prepareBurnCalls, readRedemptionAddress } from './redemption/prepareBurnCalls'
import { reconcileBurned } from './redemption/reconcileBurned'

/** the statuses a redemption is sent in: signed enough (pending), or in flight */
const SENDABLE = new Set(['pending', 'submitted'])

async function readBurnRules(ctx: WorkerContext): Promise<BurnChainRules> {
  const [rules, redemptionAddress] = await Promise.all([readMinterRules(ctx), readRedemptionAddress(ctx)])
  return { ...rules, redemptionAddress }
}

/**
 * A redemption's burn, an operation of the one send pipeline (docs/decisions/055-redemptions.md): a row of
 * redemptions, referenced by redemption_id, its approvers' signatures in redemption_signatures, sent as
 * GoldMinter.burn. GoldMinter burns only with requiredApprovals(amount) approver signatures, once per redemption
 * id, from its redemption address: the worker's key relays it and can burn nothing alone.
 */
export const redemptionKind: OperationKind<RedemptionRow> = {
  kind: 'redemption',
  noun: 'redemption',
  sendTask: TASK.redemptionSend,
  reference: ({ id }) => ({ ...NO_OPERATION, redemptionId: id }),
  lock: (db, { ids, lock }) => lockRedemptions(db, { ids, lock }),
  done: 'burned',
  settledOf: ({ row }) =>
    row.status === 'burned' || row.status === 'rejected' || row.status === 'cancelled' ? row.status : null,
  refusalOf: ({ row }) =>
    SENDABLE.has(row.status) ? null : `redemption ${row.id} is ${row.status}, not signed for sending`,
  prepareCalls: async (ctx, { rows }) => {
    const settled = await prepareBurnCalls(ctx, ctx.db, { rows, rules: await readBurnRules(ctx) })
    const byId = new Map(rows.map((r, i) => [r.id, settled[i]]))
    return async ({ row }) => {
      const result = byId.get(row.id)
      if (!result) throw new Error(`redemption ${row.id} was not prepared`)
      if (result.status === 'rejected') throw result.reason
      return result.value
    }
  },
  alreadyDone: 'RedemptionAlreadyBurned',
  reconcile: reconcileBurned,
  openSigning: (ctx) => {
    const rules = readBurnRules(ctx)
    rules.catch(() => {})
    return {
      lock: (tx, { ids }) => lockRedemptions(tx, { ids, lock: true }),
      check: async (tx, { rows }) => {
        const refused = rows.map((row) => redemptionKind.refusalOf({ row }))
        const open = rows.filter((_, i) => refused[i] === null)
        const built = await prepareBurnCalls(ctx, tx, { rows: open, rules: await rules })
        let next = 0
        return rows.map((_, i): PromiseSettledResult<`0x${string}`> => {
          const why = refused[i]
          if (why) return { status: 'rejected', reason: new ApprovalMissingError(why) }
          const result = built[next++]
          if (!result) throw new Error('a burn was not built')
          return result
        })
      },
    }
  },
  checkStoredCall: checkStoredBurnCall,
  replaced: async () => {},
  markSubmitted: async (tx, { rows }) => {
    await markRedemptionsSubmitted(tx, { ids: rows.map((r) => r.id), from: ['pending', 'failed'] })
  },
  eventIn: (ctx, { receipt, id }) => burnedEventIn({ receipt, tokenAddress: ctx.tokenAddress, redemptionId: id }),
  markConfirmed: (tx, { done }) => markRedemptionsBurnedWithEvent(tx, { done }),
  reopen: async (tx, { id }) =>
    (await markRedemptionsSubmitted(tx, { ids: [id], from: ['pending', 'failed', 'cancelled'] })).length > 0,
  handOver: async (tx, _ctx, { id, actor, detail }) => {
    // its nonce is used (by its own reverted burn, or a transaction not ours): failed; an admin's retry
    // sends it again at a new nonce, and the token burns a redemption id once
    await recordRedemptionEvent(tx, {
      type: 'redemption.failed',
      redemptionId: id,
      status: 'failed',
      from: ['submitted'],
      data: { reason: 'reverted' },
    })
    if (await markRedemptionFailed(tx, { id, reason: detail, from: ['submitted'] }))
      await recordJobEvent(tx, { event: 'failed', task: TASK.redemptionSend, orderId: id, actor, detail })
  },
  reorged: async (tx, { id }) => {
    await markRedemptionsSubmitted(tx, { ids: [id], from: ['burned'] })
  },
}
