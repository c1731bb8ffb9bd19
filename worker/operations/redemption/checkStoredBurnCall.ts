import { decodeFunctionData } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import type { RedemptionIntent } from '@/lib/chain/typedData'
import { buildRedemptionIntent } from '@/lib/redemption/buildRedemptionIntent'
import { listRedemptionBars } from '@/lib/redemption/listRedemptionBars'
import { lockRedemptions } from '../../db/lockRedemptions'
import type { StoredCallCheck } from '../OperationKind'

/**
 * A redemption's stored calldata must be GoldMinter.burn of exactly the RedemptionIntent rebuilt from its row and
 * its bars (id, amount, bars' hash, deadline), from the redemption address the call names (GoldMinter burns from
 * its own redemption address only). The signatures in it were verified when it was first signed, and GoldMinter
 * verifies them again.
 */
export const checkStoredBurnCall: StoredCallCheck = async (ctx, { id, data, refuse }) => {
  const row = (await lockRedemptions(ctx.db, { ids: [id], lock: false })).get(id)
  if (!row) return refuse(`its redemption ${id} does not exist`)
  let intent: RedemptionIntent | undefined
  try {
    const call = decodeFunctionData({ abi: goldMinterAbi, data })
    if (call.functionName === 'burn') intent = call.args[0]
  } catch {
    intent = undefined
  }
  if (!intent) return refuse('its calldata is not GoldMinter.burn')
  const bars = (await listRedemptionBars(ctx.db, { ids: [id] })).get(id) ?? []
  const expected = buildRedemptionIntent({
    redemptionId: id,
    redemptionAddress: intent.from,
    bars,
    deadline: row.intentDeadline,
  })
  if (
    intent.redemptionId.toLowerCase() !== expected.redemptionId ||
    intent.amount !== expected.amount ||
    intent.amount !== BigInt(row.amountWei) ||
    intent.barsHash.toLowerCase() !== expected.barsHash.toLowerCase() ||
    intent.deadline !== expected.deadline
  )
    refuse("its calldata is not burn of the redemption's RedemptionIntent (id, amount, bars, deadline)")
}
