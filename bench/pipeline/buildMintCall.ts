import { randomUUID } from 'node:crypto'
import { type Address, encodeFunctionData, type Hex } from 'viem'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '../../worker/chain/orderIdToBytes32'

export type BuildMintCallParameters = { to: Address; amountWei: bigint; orderId?: string }

/** The calldata of `mint(to, amount, orderId)` exactly as mint_send builds it, for a fresh order id. */
export function buildMintCall({ to, amountWei, orderId = randomUUID() }: BuildMintCallParameters): Hex {
  return encodeFunctionData({
    abi: goldTokenAbi,
    functionName: 'mint',
    args: [to, amountWei, orderIdToBytes32(orderId)],
  })
}
