import { type Address, encodeFunctionData, type Hex, type PublicClient } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { decodeMintError } from '@/worker/chain/decodeMintError'
import { orderIdToBytes32 } from '@/worker/chain/orderIdToBytes32'
import { MintRevertedError } from '@/worker/errors/chain'

export type EstimateMintGasParameters = {
  tokenAddress: Address
  /** the signer the simulation runs as (all signers hold MINTER_ROLE) */
  from: Address
  to: Address
  amountWei: bigint
  orderId: string
}

export type EstimateMintGasReturnType = {
  data: Hex
  /** the estimate plus 20% */
  gas: bigint
}

/**
 * The simulation of one mint, in ONE call: eth_estimateGas executes `mint(to, amount,
 * orderId)` against the pending state like eth_call does, so a revert comes back with the
 * contract's reason (a MintRevertedError, permanent: nothing is signed, no nonce is taken)
 * and success gives the gas. One call per order rather than eth_call + eth_estimateGas:
 * half the node's work per mint. RPC failures pass through (transient).
 */
export async function estimateMintGas(
  client: PublicClient,
  p: EstimateMintGasParameters,
): Promise<EstimateMintGasReturnType> {
  const args = [p.to, p.amountWei, orderIdToBytes32(p.orderId)] as const
  let gas: bigint
  try {
    gas = await client.estimateContractGas({
      address: p.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'mint',
      args,
      account: p.from,
    })
  } catch (error) {
    const decoded = decodeMintError(error)
    if (decoded) throw new MintRevertedError(decoded.reason, decoded.errorName, { cause: error })
    throw error
  }
  return { data: encodeFunctionData({ abi: goldTokenAbi, functionName: 'mint', args }), gas: (gas * 12n) / 10n }
}
