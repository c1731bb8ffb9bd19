import type { Hex } from 'viem'
import { sortApprovals } from '@/lib/chain/typedData'
import {
  buildComplianceIntent,
  complianceTypedData,
  encodeComplianceCall,
  hashComplianceIntent,
} from '@/lib/compliance/buildComplianceIntent'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { countValidSignatures } from '../../approvals/countValidSignatures'
import type { MinterRules } from '../../approvals/readMinterRules'
import type { StoredSignature } from '../../db/listOrderSignatures'
import type { ComplianceOperationRow } from '../../db/lockComplianceOperations'
import type { WorkerContext } from '../../runtime/context'

export type BuildComplianceCallParameters = {
  operation: Pick<ComplianceOperationRow, 'id' | 'action' | 'account' | 'intentDeadline' | 'requestedBy'>
  signatures: readonly StoredSignature[]
  rules: MinterRules
}

/**
 * The relayer's whole judgement of one compliance operation (docs/decisions/056-compliance-operations.md), trusting
 * no row the web wrote alone: its FreezeIntent or PauseIntent rebuilt from its action, account and deadline
 * (buildComplianceIntent); every stored signature verified again over it (countValidSignatures), counted only when
 * its key is bound to a user other than the requester, is an approver on chain, and its user has not counted
 * already; at least GoldMinter's complianceApprovals must count, before the deadline. The answer is
 * GoldMinter.setFrozen or setPaused calldata. A refusal is permanent (ApprovalMissingError).
 */
export async function buildComplianceCall(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  p: BuildComplianceCallParameters,
): Promise<Hex> {
  const { id } = p.operation
  if (p.operation.intentDeadline.getTime() <= Date.now())
    throw new ApprovalMissingError(`compliance operation ${id} expired at ${p.operation.intentDeadline.toISOString()}`)
  let intent: ReturnType<typeof buildComplianceIntent>
  try {
    intent = buildComplianceIntent(p.operation)
  } catch (error) {
    throw new ApprovalMissingError(`compliance operation ${id} has no intent: ${(error as Error).message}`)
  }
  const domain = { chainId: ctx.chainId, verifyingContract: ctx.minterAddress }
  const typedData = complianceTypedData(domain, intent)
  const required = Number(p.rules.rule.complianceApprovals)
  const { counted, refused } = await countValidSignatures(ctx, {
    signatures: p.signatures,
    typedData,
    digest: hashComplianceIntent(domain, intent),
    keys: p.rules.approvers,
    role: 'approver',
    excluded: p.operation.requestedBy,
  })
  if (counted.length < required) {
    const why = refused.length > 0 ? ` (not counted: ${refused.join('; ')})` : ''
    throw new ApprovalMissingError(
      `compliance operation ${id} has ${counted.length} valid approver signature${counted.length === 1 ? '' : 's'} of ${required} required${why}`,
    )
  }
  return encodeComplianceCall({ intent, approvals: sortApprovals(counted.slice(0, required)) })
}
