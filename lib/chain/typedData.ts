import { type Address, decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem'
import { BaseError } from '@/lib/errors/BaseError'

/**
 * GoldMinter's EIP-712 typed data (contracts/GoldMinter.sol), as viem typed-data
 * definitions: what the approvers, the admins and the custodian sign
 * (`eth_signTypedData_v4`, viem's signTypedData) and what the web, the worker and the
 * contract verify. The domain binds the chain and the GoldMinter contract:
 * `{ name: 'GoldMinter', version: '1', chainId, verifyingContract: <GoldMinter> }`.
 * Bars, barsHash, barsRoot and vault ids: lib/chain/bars.ts.
 *
 *   const typedData = mintIntentTypedData({ chainId, verifyingContract: minter }, intent)
 *   const signature = await approver.signTypedData(typedData)
 *   // GoldMinter.mint(intent, sortApprovals([{ signer: approver.address, signature }]))
 */

export const GOLD_MINTER_DOMAIN_NAME = 'GoldMinter'
export const GOLD_MINTER_DOMAIN_VERSION = '1'

export type GoldMinterDomainParameters = { chainId: number; verifyingContract: Address }

export function goldMinterDomain({ chainId, verifyingContract }: GoldMinterDomainParameters) {
  return { name: GOLD_MINTER_DOMAIN_NAME, version: GOLD_MINTER_DOMAIN_VERSION, chainId, verifyingContract } as const
}

export const mintIntentTypes = {
  MintIntent: [
    { name: 'orderId', type: 'bytes32' },
    { name: 'to', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'barsHash', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export const redemptionIntentTypes = {
  RedemptionIntent: [
    { name: 'redemptionId', type: 'bytes32' },
    { name: 'from', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'barsHash', type: 'bytes32' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export const freezeIntentTypes = {
  FreezeIntent: [
    { name: 'operationId', type: 'bytes32' },
    { name: 'account', type: 'address' },
    { name: 'frozen', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export const pauseIntentTypes = {
  PauseIntent: [
    { name: 'operationId', type: 'bytes32' },
    { name: 'paused', type: 'bool' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export const barListTypes = {
  BarList: [
    { name: 'vault', type: 'bytes32' },
    { name: 'asOf', type: 'uint256' },
    { name: 'barsRoot', type: 'bytes32' },
    { name: 'totalFineWei', type: 'uint256' },
  ],
} as const

export const controlChangeTypes = {
  ControlChange: [
    { name: 'changeId', type: 'bytes32' },
    { name: 'action', type: 'string' },
    { name: 'params', type: 'bytes' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** Amounts in wei (1 fine oz = 10^18); ids are bytes32 (orderIdToBytes32 for uuids); deadlines in Unix seconds. */
export type MintIntent = { orderId: Hex; to: Address; amount: bigint; barsHash: Hex; deadline: bigint }
export type RedemptionIntent = { redemptionId: Hex; from: Address; amount: bigint; barsHash: Hex; deadline: bigint }
export type FreezeIntent = { operationId: Hex; account: Address; frozen: boolean; deadline: bigint }
export type PauseIntent = { operationId: Hex; paused: boolean; deadline: bigint }
/**
 * vault: vaultId(name); asOf: the list's time in Unix seconds;
 * barsRoot: barsRoot(bars); totalFineWei: totalFineWei(bars)
 */
export type BarList = { vault: Hex; asOf: bigint; barsRoot: Hex; totalFineWei: bigint }
/** action and params: encodeControlChange(...) */
export type ControlChange = { changeId: Hex; action: string; params: Hex; deadline: bigint }

export function mintIntentTypedData(domain: GoldMinterDomainParameters, message: MintIntent) {
  return { domain: goldMinterDomain(domain), types: mintIntentTypes, primaryType: 'MintIntent', message } as const
}

export function redemptionIntentTypedData(domain: GoldMinterDomainParameters, message: RedemptionIntent) {
  return {
    domain: goldMinterDomain(domain),
    types: redemptionIntentTypes,
    primaryType: 'RedemptionIntent',
    message,
  } as const
}

export function freezeIntentTypedData(domain: GoldMinterDomainParameters, message: FreezeIntent) {
  return { domain: goldMinterDomain(domain), types: freezeIntentTypes, primaryType: 'FreezeIntent', message } as const
}

export function pauseIntentTypedData(domain: GoldMinterDomainParameters, message: PauseIntent) {
  return { domain: goldMinterDomain(domain), types: pauseIntentTypes, primaryType: 'PauseIntent', message } as const
}

export function barListTypedData(domain: GoldMinterDomainParameters, message: BarList) {
  return { domain: goldMinterDomain(domain), types: barListTypes, primaryType: 'BarList', message } as const
}

export function controlChangeTypedData(domain: GoldMinterDomainParameters, message: ControlChange) {
  return { domain: goldMinterDomain(domain), types: controlChangeTypes, primaryType: 'ControlChange', message } as const
}

/** The approval rule's shape, as GoldMinter.approvalRule() returns it (amounts in wei). */
export type ApprovalRule = {
  /** at or above this amount a mint or burn needs approvalsAtOrAbove, below it approvalsBelow */
  largeAmount: bigint
  approvalsBelow: bigint
  approvalsAtOrAbove: bigint
  /** a freeze, unfreeze, pause or unpause */
  complianceApprovals: bigint
}

/** dev: 1 approver below 10,000 oz, 2 at or above; 1 for compliance */
export const DEV_APPROVAL_RULE: ApprovalRule = {
  largeAmount: 10_000n * 10n ** 18n,
  approvalsBelow: 1n,
  approvalsAtOrAbove: 2n,
  complianceApprovals: 1n,
}

/** One control change, as the admins mean it; encodeControlChange makes its action and params. */
export type ControlChangeAction =
  | {
      action: 'addApprover' | 'removeApprover' | 'addAdmin' | 'removeAdmin' | 'addCustodian' | 'removeCustodian'
      account: Address
    }
  | { action: 'setRedemptionAddress'; account: Address }
  | { action: 'setApprovalRule'; rule: ApprovalRule }
  | { action: 'setRateLimit'; capacity: bigint; refillPerSecond: bigint }
  /** rebinds the vault to a registered custodian; 0x0 removes the vault, and its reserve */
  | { action: 'setCustodian'; vault: Hex; custodian: Address }
  | { action: 'setAdminThreshold'; threshold: bigint }
  /**
   * the desk's own: a signer's pending nonce replaced by a zero-value self-transfer (decision 064).
   * GoldMinter knows no such action (UnknownControlAction): its admins' signatures authorise the
   * worker's cancel and nothing on chain
   */
  | { action: 'cancelNonce'; signer: Address; nonce: bigint }

export class ControlChangeDecodeError extends BaseError {
  override name = 'ControlChangeDecodeError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal_error', message, options)
  }
}

const ADDRESS = [{ type: 'address' }] as const
const RULE = [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }] as const
const RATE = [{ type: 'uint256' }, { type: 'uint256' }] as const
const CUSTODIAN = [{ type: 'bytes32' }, { type: 'address' }] as const
const THRESHOLD = [{ type: 'uint256' }] as const
const SIGNER_NONCE = [{ type: 'address' }, { type: 'uint256' }] as const

/** The `action` and `params` (abi-encoded arguments) of a ControlChange. */
export function encodeControlChange(change: ControlChangeAction): { action: string; params: Hex } {
  switch (change.action) {
    case 'addApprover':
    case 'removeApprover':
    case 'addAdmin':
    case 'removeAdmin':
    case 'addCustodian':
    case 'removeCustodian':
    case 'setRedemptionAddress':
      return { action: change.action, params: encodeAbiParameters(ADDRESS, [change.account]) }
    case 'setApprovalRule': {
      const r = change.rule
      return {
        action: change.action,
        params: encodeAbiParameters(RULE, [
          r.largeAmount,
          r.approvalsBelow,
          r.approvalsAtOrAbove,
          r.complianceApprovals,
        ]),
      }
    }
    case 'setRateLimit':
      return { action: change.action, params: encodeAbiParameters(RATE, [change.capacity, change.refillPerSecond]) }
    case 'setCustodian':
      return { action: change.action, params: encodeAbiParameters(CUSTODIAN, [change.vault, change.custodian]) }
    case 'setAdminThreshold':
      return { action: change.action, params: encodeAbiParameters(THRESHOLD, [change.threshold]) }
    case 'cancelNonce':
      return { action: change.action, params: encodeAbiParameters(SIGNER_NONCE, [change.signer, change.nonce]) }
  }
}

/** What a ControlChange's action and params mean (for showing an admin what they sign). */
export function decodeControlChange({ action, params }: { action: string; params: Hex }): ControlChangeAction {
  try {
    switch (action) {
      case 'addApprover':
      case 'removeApprover':
      case 'addAdmin':
      case 'removeAdmin':
      case 'addCustodian':
      case 'removeCustodian':
      case 'setRedemptionAddress':
        return { action, account: decodeAbiParameters(ADDRESS, params)[0] }
      case 'setApprovalRule': {
        const [largeAmount, approvalsBelow, approvalsAtOrAbove, complianceApprovals] = decodeAbiParameters(RULE, params)
        return { action, rule: { largeAmount, approvalsBelow, approvalsAtOrAbove, complianceApprovals } }
      }
      case 'setRateLimit': {
        const [capacity, refillPerSecond] = decodeAbiParameters(RATE, params)
        return { action, capacity, refillPerSecond }
      }
      case 'setCustodian': {
        const [vault, custodian] = decodeAbiParameters(CUSTODIAN, params)
        return { action, vault, custodian }
      }
      case 'setAdminThreshold':
        return { action, threshold: decodeAbiParameters(THRESHOLD, params)[0] }
      case 'cancelNonce': {
        const [signer, nonce] = decodeAbiParameters(SIGNER_NONCE, params)
        return { action, signer, nonce }
      }
    }
  } catch (err) {
    throw new ControlChangeDecodeError(`the params of ${action} do not decode`, { cause: err })
  }
  throw new ControlChangeDecodeError(`unknown control change action ${action}`)
}

/** A signer's signature as GoldMinter takes it (an Approval). */
export type SignerSignature = { signer: Address; signature: Hex }

/** The signatures sorted by signer, ascending, as GoldMinter requires (it refuses a signer twice). */
export function sortApprovals(signatures: readonly SignerSignature[]): SignerSignature[] {
  return [...signatures].sort((a, b) => {
    const x = BigInt(a.signer)
    const y = BigInt(b.signer)
    return x < y ? -1 : x > y ? 1 : 0
  })
}
