import { describe, expect, it } from 'vitest'
import { buildChart, DEFAULT_LAYOUT, niceCeiling, type ThroughputPoint } from './buildChart'

function hour(): ThroughputPoint[] {
  const start = Date.parse('2026-01-01T10:00:00Z')
  return Array.from({ length: 60 }, (_, i) => ({
    at: new Date(start + i * 60_000),
    enqueued: i === 30 ? 12 : 1,
    succeeded: i === 30 ? 7 : 1,
    failed: i === 30 ? 2 : 0,
  }))
}

describe('niceCeiling', () => {
  it('rounds up to 1, 2 or 5 x 10^k', () => {
    expect([0, 0.5, 1, 3, 7, 12, 20, 21, 99, 501].map(niceCeiling)).toEqual([1, 1, 1, 5, 10, 20, 20, 50, 100, 1000])
  })
})

describe('buildChart', () => {
  const chart = buildChart(hour())
  const plotH = DEFAULT_LAYOUT.height - DEFAULT_LAYOUT.top - DEFAULT_LAYOUT.bottom

  it('has one bar per bucket inside the plot, in time order', () => {
    expect(chart.bars).toHaveLength(60)
    for (let i = 1; i < 60; i++) expect(chart.bars[i]!.x).toBeGreaterThan(chart.bars[i - 1]!.x)
    expect(chart.bars[0]!.x).toBeGreaterThanOrEqual(DEFAULT_LAYOUT.left)
    const last = chart.bars[59]!
    expect(last.x + last.width).toBeLessThanOrEqual(DEFAULT_LAYOUT.width - DEFAULT_LAYOUT.right)
  })

  it('scales to a round maximum and stacks failures on successes', () => {
    expect(chart.yMax).toBe(20) // peak 12 enqueued
    const peak = chart.bars[30]!
    expect(peak.succeeded.height).toBeCloseTo((7 / 20) * plotH)
    expect(peak.failed.height).toBeCloseTo((2 / 20) * plotH)
    expect(peak.failed.y + peak.failed.height).toBeCloseTo(peak.succeeded.y)
    expect(peak.succeeded.y + peak.succeeded.height).toBeCloseTo(chart.baseline)
  })

  it('labels every 15 minutes and sums the totals', () => {
    expect(chart.xTicks.map((t) => t.label)).toEqual(['10:00', '10:15', '10:30', '10:45'])
    expect(chart.totals).toEqual({ enqueued: 71, succeeded: 66, failed: 2 })
    expect(chart.enqueuedPath.startsWith('M')).toBe(true)
    expect(chart.enqueuedPath.split(' ')).toHaveLength(60)
  })

  it('draws an empty hour flat, without dividing by zero', () => {
    const empty = buildChart(hour().map((p) => ({ ...p, enqueued: 0, succeeded: 0, failed: 0 })))
    expect(empty.yMax).toBe(1)
    for (const b of empty.bars) expect(b.succeeded.height).toBe(0)
    expect(buildChart([]).bars).toEqual([])
  })
})
