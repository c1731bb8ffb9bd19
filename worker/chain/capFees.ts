export type FeeCeiling = {
  /** MAX_FEE_PER_GAS; undefined: none */
  maxFeePerGas: bigint | undefined
  /** MAX_PRIORITY_FEE; undefined: none */
  maxPriorityFeePerGas: bigint | undefined
}

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

export type CapFeesParameters = {
  /** what the worker would sign: the estimate (first send) or the bump (replacement) */
  fees: Fees
  /** the latest block's base fee: below base fee + tip a transaction cannot be included */
  baseFeePerGas: bigint
  ceiling: FeeCeiling
  /** a replacement's minimum (the node replaces only >= 10% above the previous fees) */
  floor?: Fees
}

export type CapFeesReturnType =
  /** sign with these (the wanted fees, lowered to the ceiling where they were above it) */
  | { capped: false; fees: Fees }
  /** sign nothing now: the chain asks for more than the ceiling allows */
  | { capped: true; reason: string; fees: Fees }

/**
 * The fee ceiling (MAX_FEE_PER_GAS, MAX_PRIORITY_FEE), decided before anything is signed.
 * Fees above the ceiling are lowered to it as long as the transaction stays includable
 * now (max fee >= base fee + tip) and, for a replacement, still outbids the previous one;
 * otherwise the worker must wait (capped). Nothing signed ever carries a fee above the
 * ceiling, so the worker never pays more than it.
 */
export function capFees({ fees, baseFeePerGas, ceiling, floor }: CapFeesParameters): CapFeesReturnType {
  const tip = min(fees.maxPriorityFeePerGas, ceiling.maxPriorityFeePerGas)
  const maxFee = min(fees.maxFeePerGas, ceiling.maxFeePerGas)
  const capped = { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }
  if (floor && (tip < floor.maxPriorityFeePerGas || maxFee < floor.maxFeePerGas)) {
    return {
      capped: true,
      fees: capped,
      reason: `a replacement needs max fee ${floor.maxFeePerGas} and tip ${floor.maxPriorityFeePerGas} wei, above the ceiling (${describe(ceiling)})`,
    }
  }
  if (maxFee < baseFeePerGas + tip) {
    return {
      capped: true,
      fees: capped,
      reason: `base fee ${baseFeePerGas} + tip ${tip} wei is above the ceiling (${describe(ceiling)})`,
    }
  }
  return { capped: false, fees: capped }
}

function min(x: bigint, cap: bigint | undefined): bigint {
  return cap !== undefined && cap < x ? cap : x
}

function describe(ceiling: FeeCeiling): string {
  return `MAX_FEE_PER_GAS ${ceiling.maxFeePerGas ?? 'unset'}, MAX_PRIORITY_FEE ${ceiling.maxPriorityFeePerGas ?? 'unset'}`
}
