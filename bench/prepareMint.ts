import type { Address, Hex, PublicClient } from 'viem'
import { type EstimateFeesReturnType, estimateFees } from '../worker/chain/estimateFees'
import { estimateMintGas } from '../worker/chain/estimateMintGas'

export type PrepareMintParameters = {
  tokenAddress: Address
  /** the signer the simulation runs as (all signers hold MINTER_ROLE) */
  from: Address
  to: Address
  amountWei: bigint
  orderId: string
}

export type PrepareMintReturnType = {
  data: Hex
  /** the estimate plus 20% */
  gas: bigint
  fees: EstimateFeesReturnType
}

/**
 * Everything about one mint that does not depend on the nonce: its simulation and gas
 * (estimateMintGas: a revert is a MintRevertedError with the contract's decoded reason)
 * and the fees. The send path does the same per batch (one fee read for all its orders);
 * the bench calls this for one mint's gas.
 */
export async function prepareMint(client: PublicClient, p: PrepareMintParameters): Promise<PrepareMintReturnType> {
  const [{ data, gas }, fees] = await Promise.all([estimateMintGas(client, p), estimateFees(client)])
  return { data, gas, fees }
}
