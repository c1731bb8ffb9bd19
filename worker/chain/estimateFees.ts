import type { PublicClient } from 'viem'
import { NoBaseFeeError } from '@/worker/errors/chain'

export type EstimateFeesReturnType = {
  baseFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** 2 x base fee + tip: still includable after six full blocks of base fee increases */
  maxFeePerGas: bigint
}

/** EIP-1559 fees from the latest block's base fee and the node's suggested tip. */
export async function estimateFees(client: PublicClient): Promise<EstimateFeesReturnType> {
  const [block, tip] = await Promise.all([
    client.getBlock({ blockTag: 'latest' }),
    client.estimateMaxPriorityFeePerGas(),
  ])
  if (block.baseFeePerGas == null) throw new NoBaseFeeError()
  return { baseFeePerGas: block.baseFeePerGas, maxPriorityFeePerGas: tip, maxFeePerGas: block.baseFeePerGas * 2n + tip }
}
