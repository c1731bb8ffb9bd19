import { bumpedFee } from '@/lib/chain/bumpedFee'

export type BumpFeesParameters = {
  /** the fees of the transaction being replaced (the highest at its nonce) */
  previous: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  /** what the chain asks for now */
  current: { baseFeePerGas: bigint; maxPriorityFeePerGas: bigint }
}

export type BumpFeesReturnType = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * Fees for a replacement at the same nonce: both fees at least 12.5% above the previous
 * ones (nodes require >= 10% on both to replace), rounded up, and no less than the
 * current market (2 x the current base fee + the current tip), so a transaction stuck
 * below a risen base fee becomes includable again.
 */
export function bumpFees({ previous, current }: BumpFeesParameters): BumpFeesReturnType {
  const tip = max(bumpedFee(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas)
  const maxFee = max(bumpedFee(previous.maxFeePerGas), current.baseFeePerGas * 2n + tip, tip)
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }
}

function max(...xs: bigint[]): bigint {
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max refuses
  return xs.reduce((a, b) => (b > a ? b : a))
}
