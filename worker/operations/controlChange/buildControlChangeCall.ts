import { encodeFunctionData, type Hex, hashTypedData } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { type ControlChange, controlChangeTypedData, sortApprovals } from '@/lib/chain/typedData'
import { buildControlChangeIntent } from '@/lib/changes/controlChangeIntent'
import { isOnChainChangeKind, onChainChangeParamsSchemas, type ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { countValidSignatures } from '../../approvals/countValidSignatures'
import type { StoredSignature } from '../../db/listOrderSignatures'
import type { ControlChangeRow } from '../../db/lockControlChanges'
import type { WorkerContext } from '../../runtime/context'
import type { AdminRules } from './readAdminRules'

export type BuildControlChangeCallParameters = {
  change: Pick<ControlChangeRow, 'id' | 'kind' | 'params' | 'deadline'>
  signatures: readonly StoredSignature[]
  rules: AdminRules
}

export type BuildControlChangeCallReturnType = { data: Hex; intent: ControlChange }

/**
 * The relayer's whole judgement of one control change (docs/decisions/051-on-chain-control-changes.md), trusting no
 * row the web wrote alone: its ControlChange rebuilt from its kind and params (buildControlChangeIntent);
 * every stored signature verified again over it (countValidSignatures), counted only when its key is
 * bound to a user, is an admin on chain, and its user has not counted already; at least
 * GoldMinter's adminThreshold must count, before the deadline. The answer is
 * GoldMinter.applyControlChange calldata. A refusal is permanent (ApprovalMissingError).
 */
export async function buildControlChangeCall(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  p: BuildControlChangeCallParameters,
): Promise<BuildControlChangeCallReturnType> {
  const { id } = p.change
  const change = parseStoredChange(p.change)
  if (!p.change.deadline) throw new ApprovalMissingError(`control change ${id} has no deadline`)
  if (p.change.deadline.getTime() <= Date.now())
    throw new ApprovalMissingError(`control change ${id} expired at ${p.change.deadline.toISOString()}`)
  const intent = buildControlChangeIntent({ changeId: id, change, deadline: p.change.deadline })
  const typedData = controlChangeTypedData({ chainId: ctx.chainId, verifyingContract: ctx.minterAddress }, intent)
  const digest = hashTypedData(typedData)
  const { counted, refused } = await countValidSignatures(ctx, {
    signatures: p.signatures,
    typedData,
    digest,
    keys: p.rules.admins,
    role: 'admin',
  })
  if (counted.length < p.rules.threshold) {
    const why = refused.length > 0 ? ` (not counted: ${refused.join('; ')})` : ''
    throw new ApprovalMissingError(
      `control change ${id} has ${counted.length} valid admin signature${counted.length === 1 ? '' : 's'} of ${p.rules.threshold} required${why}`,
    )
  }
  const approvals = sortApprovals(counted.slice(0, p.rules.threshold))
  const data = encodeFunctionData({ abi: goldMinterAbi, functionName: 'applyControlChange', args: [intent, approvals] })
  return { data, intent }
}

/** The stored kind and params, parsed as the web parsed them; a change of the desk's own rows is refused. */
function parseStoredChange(row: Pick<ControlChangeRow, 'id' | 'kind' | 'params'>): ParsedOnChainChange {
  if (!isOnChainChangeKind(row.kind))
    throw new ApprovalMissingError(`control change ${row.id} is a ${row.kind}, which does not live on chain`)
  const parsed = onChainChangeParamsSchemas[row.kind].safeParse(row.params)
  if (!parsed.success)
    throw new ApprovalMissingError(
      `control change ${row.id}: its ${row.kind} params do not parse (${parsed.error.message})`,
    )
  // the schema was picked by row.kind, so its output is that kind's params
  return { kind: row.kind, params: parsed.data } as ParsedOnChainChange
}
