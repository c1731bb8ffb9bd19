import { describe, expect, it } from 'vitest'
import { newerOrder } from './newerOrder'

const entry = (event: string) => ({ at: '2026-12-07T10:00:00.000Z', event, detail: null })
const order = (status: string, events: string[], orderId = 'o-1') => ({
  orderId,
  status,
  timeline: events.map(entry),
})

describe('newerOrder', () => {
  it('keeps the snapshot with more timeline entries when an older read answers last', () => {
    const streamed = order('confirmed', ['requested', 'retried', 'submitted', 'confirmed'])
    const lateFetch = order('pending', ['requested', 'retried'])
    expect(newerOrder(streamed, lateFetch)).toBe(streamed)
  })

  it('takes the later snapshot when it has as many entries or more', () => {
    const before = order('pending', ['requested'])
    const sameLength = order('approved', ['requested'])
    const longer = order('submitted', ['requested', 'submitted'])
    expect(newerOrder(before, sameLength)).toBe(sameLength)
    expect(newerOrder(before, longer)).toBe(longer)
  })

  it('takes the next value when there is no previous one or another order', () => {
    const next = order('pending', ['requested'])
    expect(newerOrder(undefined, next)).toBe(next)
    expect(newerOrder(order('confirmed', ['a', 'b', 'c'], 'o-2'), next)).toBe(next)
  })
})
