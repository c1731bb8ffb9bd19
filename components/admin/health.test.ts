import { describe, expect, it } from 'vitest'
import { balanceHealth, failureRateHealth, nonceHealth, oldestQueuedHealth, runTimeHealth } from './health'

describe('dashboard health thresholds', () => {
  it('oldest queued age', () => {
    expect([null, 5, 45, 600].map((a) => oldestQueuedHealth(a).tone)).toEqual([
      'success',
      'success',
      'warning',
      'danger',
    ])
  })
  it('failure rate', () => {
    expect([null, 0, 0.01, 0.1, 0.5].map((r) => failureRateHealth(r).tone)).toEqual([
      'neutral',
      'success',
      'info',
      'warning',
      'danger',
    ])
  })
  it('p95 against the takeover limit', () => {
    expect(runTimeHealth(null, 30_000).ratio).toBeNull()
    expect(runTimeHealth(3_000, 30_000)).toMatchObject({ tone: 'success', ratio: 0.1 })
    expect(runTimeHealth(15_000, 30_000).tone).toBe('warning')
    expect(runTimeHealth(29_000, 30_000).tone).toBe('danger')
  })
  it('nonces: Postgres against the chain', () => {
    expect(nonceHealth({ nextNonce: 5, chainNonce: null, pending: null, inFlight: 0 }).label).toBe('chain unavailable')
    expect(nonceHealth({ nextNonce: 5, chainNonce: 5, pending: 5, inFlight: 0 })).toEqual({
      tone: 'success',
      label: 'in sync',
    })
    expect(nonceHealth({ nextNonce: 7, chainNonce: 5, pending: 7, inFlight: 2 })).toEqual({
      tone: 'info',
      label: '2 in flight',
    })
    expect(nonceHealth({ nextNonce: 7, chainNonce: 5, pending: 6, inFlight: 1 })).toEqual({
      tone: 'warning',
      label: '1 awaiting gap fill',
    })
    expect(nonceHealth({ nextNonce: 5, chainNonce: 5, pending: 6, inFlight: 0 }).tone).toBe('danger')
  })
  it('gas balance', () => {
    expect(balanceHealth(null, 10n).tone).toBe('neutral')
    expect(balanceHealth('0', 10n).label).toBe('empty')
    expect(balanceHealth('9', 10n).label).toBe('low balance')
    expect(balanceHealth('10', 10n).tone).toBe('success')
  })
})
