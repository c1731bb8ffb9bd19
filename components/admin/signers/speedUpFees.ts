import { formatGwei } from 'viem'
import { bumpedFee } from '@/lib/chain/bumpedFee'
import { InvalidDecimalError } from '@/lib/errors/money'
import { parseDecimal } from '@/lib/money/parseDecimal'

/** gwei has 9 decimals of wei */
const GWEI_DECIMALS = 9

/** A speed-up's two fees as the admin types them: gwei, decimal strings. */
export type SpeedUpFeesInput = { maxFeePerGas: string; maxPriorityFeePerGas: string }

/**
 * The speed-up form's first values: the nonce's newest transaction's fees +12.5% (bumpedFee, the least the desk
 * accepts for a replacement), in gwei, exactly (formatGwei divides a bigint, no float).
 *
 * @example suggestSpeedUpFees({ maxFeePerGas: '8000000000', maxPriorityFeePerGas: '1000000000' })
 * // { maxFeePerGas: '9', maxPriorityFeePerGas: '1.125' }
 */
export function suggestSpeedUpFees(current: { maxFeePerGas: string; maxPriorityFeePerGas: string }): SpeedUpFeesInput {
  return {
    maxFeePerGas: formatGwei(bumpedFee(BigInt(current.maxFeePerGas))),
    maxPriorityFeePerGas: formatGwei(bumpedFee(BigInt(current.maxPriorityFeePerGas))),
  }
}

/**
 * The typed gwei as the body of POST .../speed-up (wei as decimal strings), or what is wrong with each field, in
 * words. Exact: "31.5" gwei is 31500000000 wei, more than 9 decimals is refused, never rounded.
 */
export function speedUpBody(
  input: SpeedUpFeesInput,
):
  | { ok: true; body: { maxFeePerGas: string; maxPriorityFeePerGas: string } }
  | { ok: false; issues: Partial<SpeedUpFeesInput> } {
  const issues: Partial<SpeedUpFeesInput> = {}
  const wei: Partial<Record<keyof SpeedUpFeesInput, bigint>> = {}
  for (const field of ['maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    try {
      const value = parseDecimal(input[field].trim(), { decimals: GWEI_DECIMALS })
      if (value === 0n) issues[field] = 'More than 0 gwei.'
      else wei[field] = value
    } catch (error) {
      if (!(error instanceof InvalidDecimalError)) throw error
      issues[field] = `Gwei as a decimal number (e.g. 31.5), at most ${GWEI_DECIMALS} decimals.`
    }
  }
  if (wei.maxFeePerGas !== undefined && wei.maxPriorityFeePerGas !== undefined) {
    if (wei.maxPriorityFeePerGas > wei.maxFeePerGas) issues.maxPriorityFeePerGas = 'At most the max fee.'
    else if (Object.keys(issues).length === 0)
      return {
        ok: true,
        body: { maxFeePerGas: wei.maxFeePerGas.toString(), maxPriorityFeePerGas: wei.maxPriorityFeePerGas.toString() },
      }
  }
  return { ok: false, issues }
}
