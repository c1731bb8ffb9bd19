import { decodeFunctionData } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { buildComplianceIntent } from '@/lib/compliance/buildComplianceIntent'
import { lockComplianceOperations } from '../../db/lockComplianceOperations'
import type { StoredCallCheck } from '../OperationKind'

/**
 * A compliance operation's stored calldata must be setFrozen or setPaused of exactly the intent rebuilt from its
 * row (id, account, frozen or paused, deadline). The signatures in it were verified when it was first signed, and
 * GoldMinter verifies them again.
 */
export const checkStoredComplianceCall: StoredCallCheck = async (ctx, { id, data, refuse }) => {
  const row = (await lockComplianceOperations(ctx.db, { ids: [id], lock: false })).get(id)
  if (!row) return refuse(`its compliance operation ${id} does not exist`)
  let expected: ReturnType<typeof buildComplianceIntent>
  try {
    expected = buildComplianceIntent(row)
  } catch {
    return refuse(`its compliance operation ${id} has no intent`)
  }
  let same = false
  try {
    const call = decodeFunctionData({ abi: goldMinterAbi, data })
    if (call.functionName === 'setFrozen' && expected.call === 'setFrozen') {
      const [intent] = call.args
      same =
        intent.operationId.toLowerCase() === expected.intent.operationId &&
        intent.account.toLowerCase() === expected.intent.account.toLowerCase() &&
        intent.frozen === expected.intent.frozen &&
        intent.deadline === expected.intent.deadline
    } else if (call.functionName === 'setPaused' && expected.call === 'setPaused') {
      const [intent] = call.args
      same =
        intent.operationId.toLowerCase() === expected.intent.operationId &&
        intent.paused === expected.intent.paused &&
        intent.deadline === expected.intent.deadline
    }
  } catch {
    same = false
  }
  if (!same)
    refuse(`its calldata is not ${expected.call} of the operation's intent (id, account, frozen or paused, deadline)`)
}
