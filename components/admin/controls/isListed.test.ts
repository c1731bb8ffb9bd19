import { describe, expect, it } from 'vitest'
import { isListed } from './isListed'

const listed = [{ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }]

describe('isListed', () => {
  it('finds a listed address however it is spelled', () => {
    expect(isListed(listed, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8')).toBe(true)
    expect(isListed(listed, ' 0x70997970C51812DC3A010C7D01B50E0D17DC79C8 ')).toBe(true)
  })
  it('does not find another address', () => {
    expect(isListed(listed, '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')).toBe(false)
    expect(isListed([], '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe(false)
  })
})
