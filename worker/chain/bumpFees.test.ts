import { parseGwei } from 'viem'
import { describe, expect, it } from 'vitest'
import { bumpFees } from './bumpFees'

describe('bumpFees', () => {
  it('raises both fees by at least 12.5%, rounded up', () => {
    const previous = { maxFeePerGas: 1_000_000_001n, maxPriorityFeePerGas: 7n }
    const bumped = bumpFees({ previous, current: { baseFeePerGas: 1n, maxPriorityFeePerGas: 1n } })
    expect(bumped.maxPriorityFeePerGas).toBe(8n) // 7 * 1.125 = 7.875 -> 8
    expect(bumped.maxFeePerGas).toBe(1_125_000_002n) // 1_125_000_001.125 -> up
    expect(bumped.maxFeePerGas * 8n >= previous.maxFeePerGas * 9n).toBe(true)
  })

  it('follows the market when it moved further: at least 2 x the current base fee + tip', () => {
    const bumped = bumpFees({
      previous: { maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('1') },
      current: { baseFeePerGas: parseGwei('500'), maxPriorityFeePerGas: parseGwei('2') },
    })
    expect(bumped).toEqual({ maxFeePerGas: parseGwei('1002'), maxPriorityFeePerGas: parseGwei('2') })
  })

  it('bumps a zero tip to at least 1 wei and keeps the cap above the tip', () => {
    const bumped = bumpFees({
      previous: { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
      current: { baseFeePerGas: 0n, maxPriorityFeePerGas: 0n },
    })
    expect(bumped.maxPriorityFeePerGas).toBe(1n)
    expect(bumped.maxFeePerGas >= bumped.maxPriorityFeePerGas).toBe(true)
  })

  it('never lowers a fee, whatever the inputs', () => {
    for (let i = 0; i < 200; i++) {
      const previous = {
        maxFeePerGas: BigInt(Math.floor(Math.random() * 1e12)),
        maxPriorityFeePerGas: BigInt(Math.floor(Math.random() * 1e10)),
      }
      const current = {
        baseFeePerGas: BigInt(Math.floor(Math.random() * 1e12)),
        maxPriorityFeePerGas: BigInt(Math.floor(Math.random() * 1e10)),
      }
      const b = bumpFees({ previous, current })
      expect(b.maxFeePerGas * 8n >= previous.maxFeePerGas * 9n).toBe(true)
      expect(b.maxPriorityFeePerGas * 8n >= previous.maxPriorityFeePerGas * 9n).toBe(true)
      expect(b.maxFeePerGas >= current.baseFeePerGas * 2n + current.maxPriorityFeePerGas).toBe(true)
    }
  })
})
