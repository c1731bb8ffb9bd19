import { encodeFunctionData, type Hex, hashTypedData, isAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { barLeaf, hasSortedLeaf } from '@/lib/chain/bars'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { type MintIntent, mintIntentTypedData, type SignerSignature, sortApprovals } from '@/lib/chain/typedData'
import { ApprovalMissingError, BarListUnverifiedError } from '@/lib/errors/approvals'
import { buildMintIntent } from '@/lib/mint/buildMintIntent'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import type { BarListReader } from '../db/createBarListReader'
import type { OrderBar } from '../db/listOrderBars'
import type { StoredSignature } from '../db/listOrderSignatures'
import { readLatestBarList } from '../db/readLatestBarList'
import type { MintOrder } from '../db/readMintOrderRow'
import type { WorkerContext } from '../runtime/context'
import { countValidSignatures } from './countValidSignatures'
import { type MinterRules, requiredApprovalsOf } from './readMinterRules'
import { verifyBarList } from './verifyBarList'

export type BuildMintCallParameters = {
  order: Pick<MintOrder, 'id' | 'toAddress' | 'vault' | 'requestedBy' | 'intentDeadline'>
  /** the order's bars as the inventory has them (listBarsOfOrders) */
  bars: readonly OrderBar[]
  signatures: readonly StoredSignature[]
  rules: MinterRules
  /** the vault's latest bar list, read once for a batch's orders (createBarListReader); by default read now */
  barList?: BarListReader
}

export type BuildMintCallReturnType = { data: Hex; intent: MintIntent; approvals: SignerSignature[] }

/**
 * The relayer's whole judgement of one order (docs/decisions/043-approvals-are-signatures.md),
 * trusting no row the web wrote alone: the MintIntent is rebuilt from the order and its
 * bars (buildMintIntent); every stored signature is verified again over it (countValidSignatures: ECDSA, or
 * ERC-1271 through the chain for a contract signer) and counts only when its key is bound
 * to a user who is not the requester and is an approver on chain, one per user and per key;
 * at least requiredApprovals(amount) must count, before the deadline; the order's bars must
 * be leaves of the vault's latest bar list, whose custodian signature the worker verifies
 * itself (verifyBarList). The answer is GoldMinter.attestAndMint calldata carrying that
 * list, its signature and the approvals. A refusal is permanent (ApprovalMissingError,
 * BarListUnverifiedError) with a readable reason.
 */
export async function buildMintCall(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  db: DbOrTx,
  p: BuildMintCallParameters,
): Promise<BuildMintCallReturnType> {
  const { order } = p
  const own = p.bars.filter((b) => b.ofOrder)
  if (!isAddress(order.toAddress, { strict: false }))
    throw new ApprovalMissingError(`the recipient ${order.toAddress} of order ${order.id} is not an address`)
  const intent = buildMintIntent({ orderId: order.id, to: order.toAddress, bars: own, deadline: order.intentDeadline })
  if (intent.deadline * 1000n <= BigInt(Date.now()))
    throw new ApprovalMissingError(`the intent of order ${order.id} expired at ${order.intentDeadline.toISOString()}`)

  const typedData = mintIntentTypedData({ chainId: ctx.chainId, verifyingContract: ctx.minterAddress }, intent)
  const digest = hashTypedData(typedData)
  const required = requiredApprovalsOf(p.rules, intent.amount)
  const { counted, refused } = await countValidSignatures(ctx, {
    signatures: p.signatures,
    typedData,
    digest,
    keys: p.rules.approvers,
    role: 'approver',
    excluded: order.requestedBy,
  })
  if (counted.length < required) {
    const why = refused.length > 0 ? ` (not counted: ${refused.join('; ')})` : ''
    throw new ApprovalMissingError(
      `order ${order.id} has ${counted.length} valid approver signature${counted.length === 1 ? '' : 's'} of ${required} required${why}`,
    )
  }

  const list = await verifyBarList(ctx, db, {
    vault: order.vault,
    list: await (p.barList ? p.barList(order.vault) : readLatestBarList(db, { vault: order.vault })),
  })
  for (const bar of own) {
    const leaf = barLeaf({ serial: bar.serial, refiner: bar.refiner, fineWei: bar.fineMilliOz * WEI_PER_MILLI_OZ })
    if (!hasSortedLeaf(list.leaves, leaf))
      throw new BarListUnverifiedError(
        `bar ${bar.serial} / ${bar.refiner} of order ${order.id} is not on the custodian-signed list ${list.listId} of ${order.vault}`,
      )
  }
  const approvals = sortApprovals(counted.slice(0, required))
  const data = encodeFunctionData({
    abi: goldMinterAbi,
    functionName: 'attestAndMint',
    args: [list.barList, list.custodian, list.signature, intent, approvals],
  })
  return { data, intent, approvals }
}
