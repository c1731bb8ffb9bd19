import { describe, expect, it } from 'vitest'
import { matchBarsToDeposit } from './matchBarsToDeposit'

describe('the bars picked against the deposit', () => {
  const bar = { fineOz: '401.084' }

  it('counts exactly, and is equal only at the deposit to the milli-ounce', () => {
    expect(matchBarsToDeposit({ depositOz: '802.168', bars: [] })).toEqual({
      state: 'empty',
      pickedOz: '0.000',
      remainingOz: '802.168',
    })
    expect(matchBarsToDeposit({ depositOz: '802.168', bars: [bar] })).toEqual({
      state: 'short',
      pickedOz: '401.084',
      remainingOz: '401.084',
    })
    expect(matchBarsToDeposit({ depositOz: '802.168', bars: [bar, bar] }).state).toBe('equal')
    expect(matchBarsToDeposit({ depositOz: '802.167', bars: [bar, bar] })).toEqual({
      state: 'over',
      pickedOz: '802.168',
      remainingOz: '-0.001',
    })
  })

  it('a deposit that is no whole number of milli-ounces can match no bars', () => {
    expect(matchBarsToDeposit({ depositOz: '1000000000000000001 wei', bars: [bar] }).state).toBe('unmatchable')
  })
})
