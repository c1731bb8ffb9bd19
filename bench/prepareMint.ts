import { type Address, encodeFunctionData, type Hex, type PublicClient } from 'viem'
import { goldTokenAbi } from '../lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '../lib/mint/orderIdToBytes32'
import { type EstimateFeesReturnType, estimateFees } from '../worker/chain/estimateFees'

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
 * The bench's raw baseline: the gas and fees of one direct GoldToken.mint by a baseline
 * signer (the node's raw limit, without GoldMinter's checks), and its calldata.
 */
export async function prepareMint(client: PublicClient, p: PrepareMintParameters): Promise<PrepareMintReturnType> {
  const args = [p.to, p.amountWei, orderIdToBytes32(p.orderId)] as const
  const [gas, fees] = await Promise.all([
    client.estimateContractGas({
      address: p.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'mint',
      args,
      account: p.from,
    }),
    estimateFees(client),
  ])
  return { data: encodeFunctionData({ abi: goldTokenAbi, functionName: 'mint', args }), gas: (gas * 12n) / 10n, fees }
}
