import { describe, expect, it } from 'vitest'
import { newestTx } from './newestTx'

describe('newestTx', () => {
  const at = (s: number) => new Date(1_700_000_000_000 + s * 1000)
  it('picks the highest fee cap (the last replacement), not the latest row', () => {
    const txs = [
      { hash: 'a', maxFeePerGas: '100', createdAt: at(0) },
      { hash: 'b', maxFeePerGas: '113', createdAt: at(5) },
      { hash: 'c', maxFeePerGas: '90', createdAt: at(9) },
    ]
    expect(newestTx(txs).hash).toBe('b')
  })
  it('takes the latest on a tie, and refuses an empty list', () => {
    expect(
      newestTx([
        { hash: 'a', maxFeePerGas: '1', createdAt: at(0) },
        { hash: 'b', maxFeePerGas: '1', createdAt: at(1) },
      ]).hash,
    ).toBe('b')
    expect(() => newestTx([])).toThrow()
  })
})
