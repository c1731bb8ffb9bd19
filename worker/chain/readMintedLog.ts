import type { Address, Hex, PublicClient } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type ReadMintedLogParameters = { tokenAddress: Address; orderId: string }

export type ReadMintedLogReturnType = { transactionHash: Hex; blockNumber: bigint } | undefined

/** Where the token minted this order, from its Minted event (orderId is indexed). */
export async function readMintedLog(
  client: PublicClient,
  { tokenAddress, orderId }: ReadMintedLogParameters,
): Promise<ReadMintedLogReturnType> {
  const logs = await client.getContractEvents({
    address: tokenAddress,
    abi: goldTokenAbi,
    eventName: 'Minted',
    args: { orderId: orderIdToBytes32(orderId) },
    fromBlock: 0n,
    toBlock: 'latest',
  })
  const log = logs[0]
  if (!log || log.transactionHash === null || log.blockNumber === null) return undefined
  return { transactionHash: log.transactionHash, blockNumber: log.blockNumber }
}
