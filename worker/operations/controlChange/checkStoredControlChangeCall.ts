import { decodeFunctionData } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import type { ControlChange } from '@/lib/chain/typedData'
import { buildControlChangeIntent } from '@/lib/changes/controlChangeIntent'
import { isOnChainChangeKind, onChainChangeParamsSchemas, type ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { lockControlChanges } from '../../db/lockControlChanges'
import type { StoredCallCheck } from '../OperationKind'

/**
 * A control change's stored calldata must be applyControlChange of exactly the ControlChange
 * rebuilt from its row (id, action and params of its kind, deadline). The signatures in it were
 * verified when it was first signed, and GoldMinter verifies them again.
 */
export const checkStoredControlChangeCall: StoredCallCheck = async (ctx, { id, data, refuse }) => {
  const row = (await lockControlChanges(ctx.db, { ids: [id], lock: false })).get(id)
  if (!row) return refuse(`its control change ${id} does not exist`)
  if (!isOnChainChangeKind(row.kind)) return refuse(`its control change ${id} is a ${row.kind}, not on chain`)
  const params = onChainChangeParamsSchemas[row.kind].safeParse(row.params)
  if (!params.success || !row.deadline) return refuse(`its control change ${id} does not parse`)
  const expected = buildControlChangeIntent({
    changeId: id,
    change: { kind: row.kind, params: params.data } as ParsedOnChainChange,
    deadline: row.deadline,
  })
  let change: ControlChange | undefined
  try {
    const call = decodeFunctionData({ abi: goldMinterAbi, data })
    if (call.functionName === 'applyControlChange') change = call.args[0]
  } catch {
    change = undefined
  }
  if (
    !change ||
    change.changeId.toLowerCase() !== expected.changeId ||
    change.action !== expected.action ||
    change.params.toLowerCase() !== expected.params.toLowerCase() ||
    change.deadline !== expected.deadline
  )
    refuse("its calldata is not applyControlChange of the change's ControlChange (id, action, params, deadline)")
}
