import { type Address, decodeEventLog, isAddressEqual, type TransactionReceipt } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type BurnedEventInParameters = { receipt: TransactionReceipt; tokenAddress: Address; redemptionId: string }

/** Whether a receipt carries the token's Burned(redemptionId, from, amount) event of this redemption. */
export function burnedEventIn({ receipt, tokenAddress, redemptionId }: BurnedEventInParameters): boolean {
  const wanted = orderIdToBytes32(redemptionId)
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, tokenAddress)) continue
    try {
      const event = decodeEventLog({ abi: goldTokenAbi, data: log.data, topics: log.topics })
      if (event.eventName === 'Burned' && event.args.redemptionId.toLowerCase() === wanted) return true
    } catch {
      // another event of the token (Transfer, RoleGranted, ...)
    }
  }
  return false
}
