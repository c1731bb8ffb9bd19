import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bumpFees } from './bumpFees'
import { capFees } from './capFees'

const gwei = (n: number) => BigInt(Math.round(n * 1e9))
const none = { maxFeePerGas: undefined, maxPriorityFeePerGas: undefined }

describe('capFees (the fee ceiling)', () => {
  it('without a ceiling, signs what was asked', () => {
    const fees = { maxFeePerGas: gwei(42), maxPriorityFeePerGas: gwei(2) }
    expect(capFees({ fees, baseFeePerGas: gwei(20), ceiling: none })).toEqual({ capped: false, fees })
  })

  it('lowers fees above the ceiling while the transaction stays includable', () => {
    const r = capFees({
      fees: { maxFeePerGas: gwei(42), maxPriorityFeePerGas: gwei(2) },
      baseFeePerGas: gwei(20),
      ceiling: { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(1) },
    })
    expect(r).toEqual({ capped: false, fees: { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(1) } })
  })

  it('waits when base fee + tip is above the ceiling', () => {
    const r = capFees({
      fees: { maxFeePerGas: gwei(42), maxPriorityFeePerGas: gwei(2) },
      baseFeePerGas: gwei(20),
      ceiling: { maxFeePerGas: gwei(21), maxPriorityFeePerGas: undefined },
    })
    expect(r.capped).toBe(true)
    if (r.capped)
      expect(r.reason).toMatch(
        /base fee 20000000000 \+ tip 2000000000 wei is above the ceiling \(MAX_FEE_PER_GAS 21000000000/,
      )
    // a lower tip ceiling makes the same base fee fit
    expect(
      capFees({
        fees: { maxFeePerGas: gwei(42), maxPriorityFeePerGas: gwei(2) },
        baseFeePerGas: gwei(20),
        ceiling: { maxFeePerGas: gwei(21), maxPriorityFeePerGas: gwei(1) },
      }).capped,
    ).toBe(false)
  })

  it('waits when a replacement could not outbid the stuck transaction under the ceiling', () => {
    const previous = { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(1) }
    const fees = bumpFees({ previous, current: { baseFeePerGas: gwei(10), maxPriorityFeePerGas: gwei(1) } })
    const ceiling = { maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(5) }
    // the least the node accepts as a replacement: the bump over the previous fees alone
    const floor = bumpFees({ previous, current: { baseFeePerGas: 0n, maxPriorityFeePerGas: 0n } })
    expect(floor).toEqual({ maxFeePerGas: gwei(33.75), maxPriorityFeePerGas: gwei(1.125) })
    const r = capFees({ fees, baseFeePerGas: gwei(10), ceiling, floor })
    expect(r.capped).toBe(true)
    if (r.capped) expect(r.reason).toMatch(/a replacement needs max fee 33750000000/)
    // raised ceiling: the bump goes out as computed
    expect(
      capFees({
        fees,
        baseFeePerGas: gwei(10),
        ceiling: { maxFeePerGas: gwei(100), maxPriorityFeePerGas: gwei(5) },
        floor,
      }),
    ).toEqual({ capped: false, fees })
  })

  it('never returns fees above the ceiling, nor a signable transaction that is not includable', () => {
    const wei = fc.bigInt({ min: 0n, max: 10n ** 12n })
    fc.assert(
      fc.property(
        wei,
        wei,
        wei,
        fc.option(wei, { nil: undefined }),
        fc.option(wei, { nil: undefined }),
        (maxFee, tip, base, capFee, capTip) => {
          const r = capFees({
            fees: { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip },
            baseFeePerGas: base,
            ceiling: { maxFeePerGas: capFee, maxPriorityFeePerGas: capTip },
          })
          if (capFee !== undefined) expect(r.fees.maxFeePerGas <= capFee).toBe(true)
          if (capTip !== undefined) expect(r.fees.maxPriorityFeePerGas <= capTip).toBe(true)
          if (!r.capped) expect(r.fees.maxFeePerGas >= base + r.fees.maxPriorityFeePerGas).toBe(true)
        },
      ),
    )
  })
})
