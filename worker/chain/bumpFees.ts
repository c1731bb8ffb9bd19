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
  const tip = max(bump(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas)
  const maxFee = max(bump(previous.maxFeePerGas), current.baseFeePerGas * 2n + tip, tip)
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }
}

/** +12.5%, rounded up, and at least +1 wei */
function bump(x: bigint): bigint {
  const bumped = (x * 9n + 7n) / 8n
  return bumped > x ? bumped : x + 1n
}

function max(...xs: bigint[]): bigint {
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max refuses
  return xs.reduce((a, b) => (b > a ? b : a))
}
