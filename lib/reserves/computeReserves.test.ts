import { describe, expect, it } from 'vitest'
import { computeReserves } from './computeReserves'

const oz = (n: bigint) => n * 10n ** 18n

describe('computeReserves', () => {
  it('is covered while the supply is within backing + in flight', () => {
    expect(computeReserves({ totalSupplyWei: oz(10n), totals: { backingWei: oz(6n), inFlightWei: oz(4n) } })).toEqual({
      shortfallWei: 0n,
      status: 'covered',
    })
    expect(computeReserves({ totalSupplyWei: 0n, totals: { backingWei: oz(6n), inFlightWei: 0n } })).toEqual({
      shortfallWei: 0n,
      status: 'covered',
    })
  })

  it('reports the exact shortfall, to the wei, when the supply exceeds them', () => {
    expect(
      computeReserves({ totalSupplyWei: oz(10n) + 1n, totals: { backingWei: oz(6n), inFlightWei: oz(4n) } }),
    ).toEqual({ shortfallWei: 1n, status: 'shortfall' })
    expect(
      computeReserves({
        totalSupplyWei: oz(10n),
        totals: { backingWei: oz(6n) - 401_084n * 10n ** 15n, inFlightWei: 0n },
      }),
    ).toEqual({
      shortfallWei: oz(4n) + 401_084n * 10n ** 15n,
      status: 'shortfall',
    })
  })
})
