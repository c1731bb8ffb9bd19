export type ComputeFineOzParameters = {
  /** gross weight in milli-troy-ounces (401.125 oz -> 401125n) */
  grossMilliOz: bigint
  /** fineness in hundredths of parts per thousand (999.9 -> 99990n) */
  finenessHundredths: bigint
}

/** fine weight in milli-troy-ounces */
export type ComputeFineOzReturnType = bigint

/**
 * LBMA fine weight: gross x fineness / 1000, rounded DOWN to 0.001 oz.
 * 401.125 oz at 999.9 -> 401.084 oz. In integer units:
 * fine_milli = floor(gross_milli x fineness_hundredths / 100_000). Exact, bigint only.
 * Pure and client-safe: the request form computes the same number as the server.
 */
export function computeFineOz({ grossMilliOz, finenessHundredths }: ComputeFineOzParameters): ComputeFineOzReturnType {
  if (grossMilliOz < 0n || finenessHundredths < 0n) throw new RangeError('weights and fineness cannot be negative')
  // bigint division truncates toward zero, which is rounding down for non-negative values
  return (grossMilliOz * finenessHundredths) / 100_000n
}
