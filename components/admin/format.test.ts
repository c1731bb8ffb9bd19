import { describe, expect, it } from 'vitest'
import { formatAge, formatDuration, formatEth, formatGweiOf, formatPercent, formatRelative, shortHex } from './format'

describe('admin format helpers', () => {
  it('formats durations at each scale', () => {
    expect(formatDuration(null)).toBe('—')
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(1_250)).toBe('1.3 s')
    expect(formatDuration(42_000)).toBe('42 s')
    expect(formatDuration(125_000)).toBe('2 min 5 s')
    expect(formatDuration(3_780_000)).toBe('1 h 3 min')
    expect(formatDuration(3 * 86_400_000)).toBe('3 d 0 h')
    expect(formatAge(600)).toBe('10 min 0 s')
  })
  it('formats relative times', () => {
    const now = new Date('2026-01-01T12:00:00Z')
    expect(formatRelative(new Date('2026-01-01T11:59:50Z'), now)).toBe('10 s ago')
    expect(formatRelative(new Date('2026-01-01T12:00:30Z'), now)).toBe('in 30 s')
    expect(formatRelative(new Date('2025-12-01T00:00:00Z'), now)).toBe('2025-12-01 00:00:00 UTC')
  })
  it('formats rates', () => {
    expect(formatPercent(null)).toBe('—')
    expect(formatPercent(0)).toBe('0%')
    expect(formatPercent(0.25)).toBe('25%')
    expect(formatPercent(0.0123)).toBe('1.2%')
    expect(formatPercent(1)).toBe('100%')
  })
  it('formats wei without floats', () => {
    expect(formatEth('10000000000000000000000')).toBe('10,000 ETH')
    expect(formatEth(123_456_789_000_000_000n)).toBe('0.1234 ETH')
    expect(formatEth(null)).toBe('—')
    expect(formatGweiOf('1500000000')).toBe('1.5 gwei')
  })
  it('shortens hex', () => {
    expect(shortHex('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe('0x7099…79C8')
    expect(shortHex('0x1234')).toBe('0x1234')
  })
})
