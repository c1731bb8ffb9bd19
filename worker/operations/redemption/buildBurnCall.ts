import { encodeFunctionData, type Hex, hashTypedData } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { type RedemptionIntent, redemptionIntentTypedData, sortApprovals } from '@/lib/chain/typedData'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { buildRedemptionIntent } from '@/lib/redemption/buildRedemptionIntent'
import type { RedemptionBar } from '@/lib/redemption/listRedemptionBars'
import { countValidSignatures } from '../../approvals/countValidSignatures'
import { type MinterRules, requiredApprovalsOf } from '../../approvals/readMinterRules'
import type { StoredSignature } from '../../db/listOrderSignatures'
import type { RedemptionRow } from '../../db/lockRedemptions'
import type { WorkerContext } from '../../runtime/context'

export type BuildBurnCallParameters = {
  redemption: Pick<RedemptionRow, 'id' | 'amountWei' | 'requestedBy' | 'intentDeadline'>
  /** its bars as the inventory has them now (listRedemptionBars) */
  bars: readonly RedemptionBar[]
  signatures: readonly StoredSignature[]
  rules: MinterRules
  /** GoldMinter's redemption address, read from the chain */
  redemptionAddress: string
}

export type BuildBurnCallReturnType = { data: Hex; intent: RedemptionIntent }

/**
 * The relayer's whole judgement of one redemption (docs/decisions/055-redemptions.md), trusting no row the web
 * wrote alone: its bars must all be backing and held by it, their fine weight its amount; the RedemptionIntent is
 * rebuilt from it, its bars and the chain's redemption address (buildRedemptionIntent); every stored signature is
 * verified again over it (countValidSignatures) and counts only when its key is bound to a user who is not the
 * requester and is an approver on chain; requiredApprovals(amount) must count, before the deadline. The answer is
 * GoldMinter.burn calldata. A refusal is permanent (ApprovalMissingError).
 */
export async function buildBurnCall(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  p: BuildBurnCallParameters,
): Promise<BuildBurnCallReturnType> {
  const { id } = p.redemption
  if (p.bars.length === 0) throw new ApprovalMissingError(`redemption ${id} has no bars`)
  for (const bar of p.bars)
    if (bar.holderId !== id || bar.status !== 'backing')
      throw new ApprovalMissingError(
        `bar ${bar.serial} / ${bar.refiner} of redemption ${id} is ${bar.status}${bar.holderId === id ? '' : ', not held by it'}`,
      )
  const intent = buildRedemptionIntent({
    redemptionId: id,
    redemptionAddress: p.redemptionAddress,
    bars: p.bars,
    deadline: p.redemption.intentDeadline,
  })
  if (intent.amount !== BigInt(p.redemption.amountWei))
    throw new ApprovalMissingError(
      `the bars of redemption ${id} weigh ${intent.amount} wei, not its ${p.redemption.amountWei}`,
    )
  if (intent.deadline * 1000n <= BigInt(Date.now()))
    throw new ApprovalMissingError(
      `the intent of redemption ${id} expired at ${p.redemption.intentDeadline.toISOString()}`,
    )
  const typedData = redemptionIntentTypedData({ chainId: ctx.chainId, verifyingContract: ctx.minterAddress }, intent)
  const required = requiredApprovalsOf(p.rules, intent.amount)
  const { counted, refused } = await countValidSignatures(ctx, {
    signatures: p.signatures,
    typedData,
    digest: hashTypedData(typedData),
    keys: p.rules.approvers,
    role: 'approver',
    excluded: p.redemption.requestedBy,
  })
  if (counted.length < required) {
    const why = refused.length > 0 ? ` (not counted: ${refused.join('; ')})` : ''
    throw new ApprovalMissingError(
      `redemption ${id} has ${counted.length} valid approver signature${counted.length === 1 ? '' : 's'} of ${required} required${why}`,
    )
  }
  const approvals = sortApprovals(counted.slice(0, required))
  const data = encodeFunctionData({ abi: goldMinterAbi, functionName: 'burn', args: [intent, approvals] })
  return { data, intent }
}
