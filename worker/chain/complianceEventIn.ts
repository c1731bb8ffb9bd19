import { type Address, decodeEventLog, isAddressEqual, type TransactionReceipt } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'

export type ComplianceEventInParameters = { receipt: TransactionReceipt; minterAddress: Address; operationId: string }

/** Whether the receipt carries GoldMinter's Frozen, Unfrozen, Paused or Unpaused event of this operation. */
export function complianceEventIn({ receipt, minterAddress, operationId }: ComplianceEventInParameters): boolean {
  const wanted = orderIdToBytes32(operationId)
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, minterAddress)) continue
    try {
      const event = decodeEventLog({ abi: goldMinterAbi, data: log.data, topics: log.topics })
      if (
        (event.eventName === 'Frozen' ||
          event.eventName === 'Unfrozen' ||
          event.eventName === 'Paused' ||
          event.eventName === 'Unpaused') &&
        event.args.operationId.toLowerCase() === wanted
      )
        return true
    } catch {
      // another event of the minter
    }
  }
  return false
}
