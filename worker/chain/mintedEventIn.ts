import { type Address, decodeEventLog, isAddressEqual, type TransactionReceipt } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type MintedEventInParameters = { receipt: TransactionReceipt; tokenAddress: Address; orderId: string }

export type MintedEventInReturnType = { to: Address; amount: bigint } | undefined

/** The token's Minted(orderId, to, amount) event for this order in a receipt, if there is one. */
export function mintedEventIn({ receipt, tokenAddress, orderId }: MintedEventInParameters): MintedEventInReturnType {
  const wanted = orderIdToBytes32(orderId)
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, tokenAddress)) continue
    try {
      const event = decodeEventLog({ abi: goldTokenAbi, data: log.data, topics: log.topics })
      if (event.eventName === 'Minted' && event.args.orderId.toLowerCase() === wanted)
        return { to: event.args.to, amount: event.args.amount }
    } catch {
      // another event of the token (Transfer, RoleGranted, ...)
    }
  }
  return undefined
}
