import { type Address, encodeFunctionData, type Hex, type PublicClient } from 'viem'
import { decodeMintError } from '@/lib/chain/decodeMintError'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/chain/orderIdToBytes32'
import { MintRevertedError } from '@/lib/errors/chain'
import { type EstimateFeesReturnType, estimateFees } from './estimateFees'

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
 * Everything about a mint that does not depend on the nonce, done BEFORE a nonce is
 * taken: simulate `mint(to, amount, orderId)` (a revert is a MintRevertedError with the
 * contract's decoded reason: permanent, nothing is signed), estimate gas, read fees.
 * RPC failures pass through (transient).
 */
export async function prepareMint(client: PublicClient, p: PrepareMintParameters): Promise<PrepareMintReturnType> {
  const args = [p.to, p.amountWei, orderIdToBytes32(p.orderId)] as const
  const call = { address: p.tokenAddress, abi: goldTokenAbi, functionName: 'mint', args, account: p.from } as const
  let gas: bigint
  try {
    await client.simulateContract(call)
    gas = await client.estimateContractGas(call)
  } catch (error) {
    const decoded = decodeMintError(error)
    if (decoded) throw new MintRevertedError(decoded.reason, decoded.errorName, { cause: error })
    throw error
  }
  const fees = await estimateFees(client)
  return { data: encodeFunctionData({ abi: goldTokenAbi, functionName: 'mint', args }), gas: (gas * 12n) / 10n, fees }
}
