import { type Address, decodeEventLog, isAddressEqual, type TransactionReceipt } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type ControlChangedEventInParameters = { receipt: TransactionReceipt; minterAddress: Address; changeId: string }

/** Whether the receipt carries GoldMinter's ControlChanged(changeId, action, params) of this change. */
export function controlChangedEventIn({ receipt, minterAddress, changeId }: ControlChangedEventInParameters): boolean {
  const wanted = orderIdToBytes32(changeId)
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, minterAddress)) continue
    try {
      const event = decodeEventLog({ abi: goldMinterAbi, data: log.data, topics: log.topics })
      if (event.eventName === 'ControlChanged' && event.args.changeId.toLowerCase() === wanted) return true
    } catch {
      // another event of the minter
    }
  }
  return false
}
