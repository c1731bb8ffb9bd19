import {
  type ControlChange,
  controlChangeTypedData,
  encodeControlChange,
  type GoldMinterDomainParameters,
} from '@/lib/chain/typedData'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { onChainChangeAction, type ParsedOnChainChange } from './onChainChanges'

export type BuildControlChangeIntentParameters = {
  /** the change's uuid (control_changes.id) */
  changeId: string
  change: ParsedOnChainChange
  /** the change's deadline: GoldMinter refuses it after */
  deadline: Date
}

/**
 * THE ControlChange of an on-chain change, rebuilt from its kind and params (never from bytes a
 * row states): the web has its admins sign it and verifies them, the worker verifies them again
 * and relays it, GoldMinter verifies them once more. The id is the change's uuid as bytes32; the
 * deadline is in whole Unix seconds.
 */
export function buildControlChangeIntent(p: BuildControlChangeIntentParameters): ControlChange {
  const { action, params } = encodeControlChange(onChainChangeAction(p.change))
  return {
    changeId: orderIdToBytes32(p.changeId),
    action,
    params,
    deadline: BigInt(Math.floor(p.deadline.getTime() / 1000)),
  }
}

/** The change as EIP-712 typed data for eth_signTypedData_v4 / viem's signTypedData. */
export function buildControlChangeTypedData(domain: GoldMinterDomainParameters, p: BuildControlChangeIntentParameters) {
  return controlChangeTypedData(domain, buildControlChangeIntent(p))
}
