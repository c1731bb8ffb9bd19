/**
 * The least fee a replacement at the same nonce may offer: +12.5%, rounded up, and at least +1 wei (nodes replace
 * only >= 10% above the previous fees). The worker's bumps (worker/chain/bumpFees.ts) and the web's check of an
 * admin's speed-up use it.
 *
 * @example bumpedFee(8n) // 9n
 */
export function bumpedFee(x: bigint): bigint {
  const bumped = (x * 9n + 7n) / 8n
  return bumped > x ? bumped : x + 1n
}
