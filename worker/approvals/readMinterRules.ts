import type { Address } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import type { ApprovalRule } from '@/lib/chain/typedData'
import type { WorkerContext } from '../runtime/context'

/** What GoldMinter says now about who approves and how many must: read from the chain, never from a row. */
export type MinterRules = {
  /** lower-case approver addresses */
  approvers: ReadonlySet<string>
  rule: ApprovalRule
}

/** GoldMinter's approver set and approval rule, read once for a send batch. */
export async function readMinterRules(ctx: Pick<WorkerContext, 'chain' | 'minterAddress'>): Promise<MinterRules> {
  const minter = { address: ctx.minterAddress, abi: goldMinterAbi } as const
  const [approvers, rule] = await Promise.all([
    ctx.chain.readContract({ ...minter, functionName: 'approvers' }),
    ctx.chain.readContract({ ...minter, functionName: 'approvalRule' }),
  ])
  return { approvers: new Set(approvers.map((a: Address) => a.toLowerCase())), rule }
}

/** How many approvers a mint of `amountWei` needs (GoldMinter.requiredApprovals, from the rule read). */
export function requiredApprovalsOf(rules: MinterRules, amountWei: bigint): number {
  return Number(amountWei >= rules.rule.largeAmount ? rules.rule.approvalsAtOrAbove : rules.rule.approvalsBelow)
}
