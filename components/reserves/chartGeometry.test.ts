import { describe, expect, it } from 'vitest'
import { chartGeometry } from './chartGeometry'

const point = (
  at: string,
  totalSupply: string,
  backingFineOz: string,
  inFlightFineOz = '0',
  status: 'covered' | 'shortfall' = 'covered',
) => ({ at, totalSupply, backingFineOz, inFlightFineOz, status })

describe('chartGeometry', () => {
  const from = Date.parse('2026-12-01T00:00:00.000Z')
  const to = Date.parse('2026-12-02T00:00:00.000Z')

  it('places each point by its time in the window and its value on an axis a tenth above the largest', () => {
    const g = chartGeometry({
      points: [
        point('2026-12-01T00:00:00.000Z', '0.000', '0.000'),
        point('2026-12-01T12:00:00.000Z', '1000.000', '800.000', '200.000'),
        point('2026-12-02T00:00:00.000Z', '900.000', '1000.000'),
      ],
      from,
      to,
      width: 600,
      height: 110,
    })
    expect(g.top).toBe('1100')
    expect(g.supply).toBe('M0 110 H300 V10 H600 V20 H600')
    expect(g.cover).toBe('M0 110 H300 V10 H600 V10 H600')
    expect(g.checks).toEqual([0, 300, 600])
    expect(g.shortfalls).toEqual([])
  })

  it('the axis takes the larger of supply and cover at each point', () => {
    const g = chartGeometry({
      points: [point('2026-12-01T00:00:00.000Z', '10.000', '1500.000', '500.000')],
      from,
      to,
      width: 100,
      height: 100,
    })
    expect(g.top).toBe('2200')
    // one check: its value held to the window's end
    expect(g.supply).toBe('M0 99.6 H100')
  })

  it('marks the checks that found a shortfall, and keeps weights exact past a float', () => {
    const big = '123456789012.345678901234567891'
    const g = chartGeometry({
      points: [point('2026-12-01T06:00:00.000Z', big, '123456789012.345', '0', 'shortfall')],
      from,
      to,
      width: 400,
      height: 100,
    })
    expect(g.shortfalls).toEqual([100])
    expect(g.top).toBe('135802467914')
  })

  it('an empty window or a zero supply draws nothing off the axis', () => {
    expect(chartGeometry({ points: [], from, to, width: 400, height: 100 })).toEqual({
      supply: '',
      cover: '',
      checks: [],
      shortfalls: [],
      top: '1',
    })
  })
})
