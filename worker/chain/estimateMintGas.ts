import type { Address, Hex, PublicClient } from 'viem'
import { decodeMintError } from '@/worker/chain/decodeMintError'
import { MintRevertedError } from '@/worker/errors/chain'

export type EstimateMintGasParameters = {
  /** GoldMinter: mints are relayed to it */
  minterAddress: Address
  /** the signer the simulation runs as (a relayer: it holds no role) */
  from: Address
  /** the attestAndMint calldata (worker/approvals/buildMintCall.ts) */
  data: Hex
}

export type EstimateMintGasReturnType = {
  data: Hex
  /** the estimate plus 20% */
  gas: bigint
}

/**
 * The simulation of one mint, in ONE call: eth_estimateGas executes the attestAndMint
 * calldata against the pending state like eth_call does, so a revert comes back with
 * GoldMinter's or GoldToken's reason (a MintRevertedError, permanent: nothing is signed,
 * no nonce is taken) and success gives the gas. RPC failures pass through (transient).
 */
export async function estimateMintGas(
  client: PublicClient,
  p: EstimateMintGasParameters,
): Promise<EstimateMintGasReturnType> {
  let gas: bigint
  try {
    gas = await client.estimateGas({ to: p.minterAddress, data: p.data, account: p.from })
  } catch (error) {
    const decoded = decodeMintError(error)
    if (decoded) throw new MintRevertedError(decoded.reason, decoded.errorName, { cause: error })
    throw error
  }
  return { data: p.data, gas: (gas * 12n) / 10n }
}
