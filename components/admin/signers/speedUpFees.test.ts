import { describe, expect, it } from 'vitest'
import { speedUpBody, suggestSpeedUpFees } from './speedUpFees'

describe("the speed-up form's fees", () => {
  it('suggests the newest fees +12.5% in gwei, exactly', () => {
    expect(suggestSpeedUpFees({ maxFeePerGas: '8000000000', maxPriorityFeePerGas: '1000000000' })).toEqual({
      maxFeePerGas: '9',
      maxPriorityFeePerGas: '1.125',
    })
    // rounded up to the wei, never through a float: 1 wei more than 12.5% of 7 wei is 8 wei
    expect(suggestSpeedUpFees({ maxFeePerGas: '30000000007', maxPriorityFeePerGas: '7' })).toEqual({
      maxFeePerGas: '33.750000008',
      maxPriorityFeePerGas: '0.000000008',
    })
  })

  it('reads gwei as wei decimal strings, with no rounding', () => {
    expect(speedUpBody({ maxFeePerGas: ' 31.5 ', maxPriorityFeePerGas: '0.000000001' })).toEqual({
      ok: true,
      body: { maxFeePerGas: '31500000000', maxPriorityFeePerGas: '1' },
    })
    expect(speedUpBody({ maxFeePerGas: '123456789012345.123456789', maxPriorityFeePerGas: '2' })).toEqual({
      ok: true,
      body: { maxFeePerGas: '123456789012345123456789', maxPriorityFeePerGas: '2000000000' },
    })
  })

  it('says in words what is wrong with each field', () => {
    expect(speedUpBody({ maxFeePerGas: '1.0000000001', maxPriorityFeePerGas: '' })).toEqual({
      ok: false,
      issues: {
        maxFeePerGas: 'Gwei as a decimal number (e.g. 31.5), at most 9 decimals.',
        maxPriorityFeePerGas: 'Gwei as a decimal number (e.g. 31.5), at most 9 decimals.',
      },
    })
    expect(speedUpBody({ maxFeePerGas: '1e9', maxPriorityFeePerGas: '0' }).ok).toBe(false)
    expect(speedUpBody({ maxFeePerGas: '0', maxPriorityFeePerGas: '1' })).toEqual({
      ok: false,
      issues: { maxFeePerGas: 'More than 0 gwei.' },
    })
    expect(speedUpBody({ maxFeePerGas: '2', maxPriorityFeePerGas: '3' })).toEqual({
      ok: false,
      issues: { maxPriorityFeePerGas: 'At most the max fee.' },
    })
  })
})
