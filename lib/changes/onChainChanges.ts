import { type Address, zeroAddress } from 'viem'
import { z } from 'zod'
import { vaultId } from '@/lib/chain/bars'
import type { ControlChangeAction } from '@/lib/chain/typedData'
import { controlFieldSchemas } from '@/lib/mint/mintRequestSchema'
import { ozToWei } from '@/lib/money/ozToWei'

const account = z.strictObject({ address: controlFieldSchemas.address })
const count = z.number().int().min(1).max(100)

/**
 * THE home of the control changes that live on chain (docs/decisions/051-on-chain-control-changes.md): each kind's
 * params (control_changes.params, the body of POST /api/admin/changes), and the GoldMinter action
 * they become. The web checks and signs against them, the worker rebuilds the same action from
 * the stored params, and GoldMinter applies it only with its admins' signatures.
 */
export const onChainChangeParamsSchemas = {
  /** an approver key joins GoldMinter's approver set */
  'approver.add': account,
  /** an approver key leaves it (GoldMinter refuses if the rule's quorum could no longer be met) */
  'approver.remove': account,
  /** the approvals a mint or burn needs, below and at or above `largeAmountOz`, and a compliance action */
  'approvals.rule': z.strictObject({
    largeAmountOz: controlFieldSchemas.amount,
    approvalsBelow: count,
    approvalsAtOrAbove: count,
    complianceApprovals: count,
  }),
  /** the mint rate limit: a bucket of `capacityOz` that refills `refillOzPerSecond` */
  'mint.rate_limit': z.strictObject({
    capacityOz: controlFieldSchemas.amount,
    refillOzPerSecond: controlFieldSchemas.amount,
  }),
  /** a custodian key GoldMinter accepts bar lists from */
  'custodian.add': account,
  'custodian.remove': account,
  /** a vault's custodian key (registered before); null: the vault leaves, with its reserve */
  'custodian.vault': z.strictObject({
    vault: controlFieldSchemas.text,
    custodian: z.union([controlFieldSchemas.address, z.null()]),
  }),
  /** an admin key that signs control changes */
  'admin.add': account,
  'admin.remove': account,
  /** how many admins' signatures a control change needs (at least 2) */
  'admin.threshold': z.strictObject({ threshold: z.number().int().min(2).max(100) }),
  /**
   * the desk's own, signed as the others are (decision 064): a signer's pending nonce filled by a
   * zero-value self-transfer, the mint bound to it cancelled. POST /api/admin/signers/{address}/nonces/{nonce}/cancel
   * proposes it; the worker's nonce_cancel applies it, never GoldMinter
   */
  'nonce.cancel': z.strictObject({
    signerAddress: controlFieldSchemas.address,
    nonce: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
} as const

/** the signed kinds the worker applies itself (GoldMinter refuses their action): no control_send, their own task */
export const DESK_SIGNED_CHANGE_KINDS = ['nonce.cancel'] as const

export type OnChainChangeKind = keyof typeof onChainChangeParamsSchemas

/** the kinds POST /api/admin/changes proposes (a desk-signed kind has its own route) */
export type ProposedOnChainChangeKind = Exclude<OnChainChangeKind, (typeof DESK_SIGNED_CHANGE_KINDS)[number]>

export type OnChainChangeParams<K extends OnChainChangeKind = OnChainChangeKind> = z.output<
  (typeof onChainChangeParamsSchemas)[K]
>

/** An on-chain change as parsed: its kind and its params, typed together. */
export type ParsedOnChainChange = {
  [K in OnChainChangeKind]: { kind: K; params: OnChainChangeParams<K> }
}[OnChainChangeKind]

export function isOnChainChangeKind(kind: string): kind is OnChainChangeKind {
  return Object.hasOwn(onChainChangeParamsSchemas, kind)
}

/** The GoldMinter action of a parsed on-chain change (encodeControlChange makes its action and params). */
export function onChainChangeAction(change: ParsedOnChainChange): ControlChangeAction {
  switch (change.kind) {
    case 'approver.add':
      return { action: 'addApprover', account: change.params.address as Address }
    case 'approver.remove':
      return { action: 'removeApprover', account: change.params.address as Address }
    case 'admin.add':
      return { action: 'addAdmin', account: change.params.address as Address }
    case 'admin.remove':
      return { action: 'removeAdmin', account: change.params.address as Address }
    case 'custodian.add':
      return { action: 'addCustodian', account: change.params.address as Address }
    case 'custodian.remove':
      return { action: 'removeCustodian', account: change.params.address as Address }
    case 'custodian.vault':
      return {
        action: 'setCustodian',
        vault: vaultId(change.params.vault),
        custodian: (change.params.custodian ?? zeroAddress) as Address,
      }
    case 'approvals.rule':
      return {
        action: 'setApprovalRule',
        rule: {
          largeAmount: ozToWei(change.params.largeAmountOz),
          approvalsBelow: BigInt(change.params.approvalsBelow),
          approvalsAtOrAbove: BigInt(change.params.approvalsAtOrAbove),
          complianceApprovals: BigInt(change.params.complianceApprovals),
        },
      }
    case 'mint.rate_limit':
      return {
        action: 'setRateLimit',
        capacity: ozToWei(change.params.capacityOz),
        refillPerSecond: ozToWei(change.params.refillOzPerSecond),
      }
    case 'admin.threshold':
      return { action: 'setAdminThreshold', threshold: BigInt(change.params.threshold) }
    case 'nonce.cancel':
      return {
        action: 'cancelNonce',
        signer: change.params.signerAddress as Address,
        nonce: BigInt(change.params.nonce),
      }
  }
}
