import { describe, expect, it } from 'vitest'
import { isSameIntent } from './judgeApprovalSignature'

const intent = {
  orderId: '0d7c9a52-3f4e-4d1a-9a51-8f0e2b7c6d10',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  bars: [
    { serial: 'AB1', refiner: 'PAMP SA', fineMilliOz: 400_123n },
    { serial: 'AB2', refiner: 'Valcambi SA', fineMilliOz: 399_870n },
  ],
  deadline: new Date('2026-12-09T10:00:00Z'),
}

describe('isSameIntent', () => {
  it('holds for a second read of the same order, whatever the address case', () => {
    expect(
      isSameIntent(intent, { ...intent, to: intent.to.toLowerCase(), bars: intent.bars.map((b) => ({ ...b })) }),
    ).toBe(true)
  })

  it('fails when the recipient, the deadline, a bar, the bars order or the order id differ', () => {
    const [first, second] = intent.bars
    if (!first || !second) throw new Error('two bars')
    expect(isSameIntent(intent, { ...intent, to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })).toBe(false)
    expect(isSameIntent(intent, { ...intent, deadline: new Date('2026-12-09T10:00:01Z') })).toBe(false)
    expect(isSameIntent(intent, { ...intent, bars: [first, { ...second, fineMilliOz: 399_871n }] })).toBe(false)
    expect(isSameIntent(intent, { ...intent, bars: [second, first] })).toBe(false)
    expect(isSameIntent(intent, { ...intent, bars: [first] })).toBe(false)
    expect(isSameIntent(intent, { ...intent, orderId: '0d7c9a52-3f4e-4d1a-9a51-8f0e2b7c6d11' })).toBe(false)
  })
})
