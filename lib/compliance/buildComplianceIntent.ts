import { encodeFunctionData, getAddress, type Hex, hashTypedData } from 'viem'
import type { ComplianceAction } from '@/db/schema'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import {
  type FreezeIntent,
  freezeIntentTypedData,
  type GoldMinterDomainParameters,
  type PauseIntent,
  pauseIntentTypedData,
  type SignerSignature,
} from '@/lib/chain/typedData'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type BuildComplianceIntentParameters = {
  /** the operation's uuid (compliance_operations.id) */
  id: string
  action: ComplianceAction
  /** the frozen or unfrozen account; null for pause and unpause */
  account: string | null
  /** the intent's deadline: GoldMinter refuses it after */
  intentDeadline: Date
}

/** A freeze or unfreeze (GoldMinter.setFrozen), or a pause or unpause (GoldMinter.setPaused). */
export type ComplianceIntent = { call: 'setFrozen'; intent: FreezeIntent } | { call: 'setPaused'; intent: PauseIntent }

/**
 * THE intent of a compliance operation (docs/decisions/056-compliance-operations.md), rebuilt from its row's
 * action, account and deadline (never from bytes a row states): the web has approvers sign it and verifies them,
 * the worker verifies them again and relays it, GoldMinter verifies them once more. The id is the operation's uuid
 * as bytes32 (lib/mint/orderIdToBytes32.ts); the deadline is in whole Unix seconds.
 *
 *   buildComplianceIntent({ id, action: 'freeze', account: '0xabc…', intentDeadline })
 *   // { call: 'setFrozen', intent: { operationId, account, frozen: true, deadline } }
 */
export function buildComplianceIntent(p: BuildComplianceIntentParameters): ComplianceIntent {
  const operationId = orderIdToBytes32(p.id)
  const deadline = BigInt(Math.floor(p.intentDeadline.getTime() / 1000))
  if (p.action === 'freeze' || p.action === 'unfreeze') {
    if (p.account === null) throw new Error(`compliance operation ${p.id} is a ${p.action} without an account`)
    return {
      call: 'setFrozen',
      intent: { operationId, account: getAddress(p.account), frozen: p.action === 'freeze', deadline },
    }
  }
  return { call: 'setPaused', intent: { operationId, paused: p.action === 'pause', deadline } }
}

/** The operation's intent as EIP-712 typed data for eth_signTypedData_v4 / viem's signTypedData. */
export function complianceTypedData(domain: GoldMinterDomainParameters, intent: ComplianceIntent) {
  return intent.call === 'setFrozen'
    ? freezeIntentTypedData(domain, intent.intent)
    : pauseIntentTypedData(domain, intent.intent)
}

/**
 * The EIP-712 digest of the operation's intent: what its approvers sign (GoldMinter's hashFreezeIntent,
 * hashPauseIntent).
 */
export function hashComplianceIntent(domain: GoldMinterDomainParameters, intent: ComplianceIntent): Hex {
  return intent.call === 'setFrozen'
    ? hashTypedData(freezeIntentTypedData(domain, intent.intent))
    : hashTypedData(pauseIntentTypedData(domain, intent.intent))
}

/** GoldMinter.setFrozen or setPaused calldata of the intent with its approvals (sorted by signer). */
export function encodeComplianceCall(p: { intent: ComplianceIntent; approvals: readonly SignerSignature[] }): Hex {
  return p.intent.call === 'setFrozen'
    ? encodeFunctionData({ abi: goldMinterAbi, functionName: 'setFrozen', args: [p.intent.intent, p.approvals] })
    : encodeFunctionData({ abi: goldMinterAbi, functionName: 'setPaused', args: [p.intent.intent, p.approvals] })
}
