import type { Address, PublicClient } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'

export type ReadTotalSupplyParameters = { tokenAddress: Address }

export type ReadTotalSupplyReturnType = { totalSupplyWei: bigint; blockNumber: bigint }

/**
 * The token's total supply at the latest block, with that block's number, so a check
 * says exactly which chain state it compared. Read BEFORE the inventory totals: an
 * order signed in between then counts as in flight, never the other way round (a token
 * on chain whose order was not yet in flight would look unbacked).
 */
export async function readTotalSupply(
  client: PublicClient,
  { tokenAddress }: ReadTotalSupplyParameters,
): Promise<ReadTotalSupplyReturnType> {
  const blockNumber = await client.getBlockNumber()
  const totalSupplyWei = await client.readContract({
    address: tokenAddress,
    abi: goldTokenAbi,
    functionName: 'totalSupply',
    blockNumber,
  })
  return { totalSupplyWei, blockNumber }
}
