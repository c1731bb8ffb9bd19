import type { Address, Hex, PublicClient } from 'viem'
import { type EstimateFeesReturnType, estimateFees } from '../worker/chain/estimateFees'

export type PrepareMintParameters = {
  minterAddress: Address
  /** the baseline signer the estimate runs as (a relayer: it holds no role) */
  from: Address
  /** a baseline order's GoldMinter.attestAndMint calldata (buildBaselineCalls) */
  data: Hex
}

export type PrepareMintReturnType = {
  /** the estimate plus 20% */
  gas: bigint
  fees: EstimateFeesReturnType
}

/**
 * The bench's chain baselines: the gas and fees of one GoldMinter.attestAndMint relayed by a
 * baseline signer, for a vault whose list the chain holds already (the mints the baselines
 * time, as most of the pipeline's: a list is attested by its first mint only).
 */
export async function prepareMint(client: PublicClient, p: PrepareMintParameters): Promise<PrepareMintReturnType> {
  const [gas, fees] = await Promise.all([
    client.estimateGas({ to: p.minterAddress, data: p.data, account: p.from }),
    estimateFees(client),
  ])
  return { gas: (gas * 12n) / 10n, fees }
}
