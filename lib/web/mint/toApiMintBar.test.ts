import { describe, expect, it } from 'vitest'
import { toApiMintBar } from './toApiMintBar'

const bar = { serial: 'A', refiner: 'R', year: 2025, grossOz: '401.125', fineness: '999.90', fineOz: '401.084' }

describe('toApiMintBar (the one bar format of every view)', () => {
  it.each([
    ['999.90', '999.9'],
    ['999.9', '999.9'],
    ['999.00', '999.0'],
    ['999', '999.0'],
    ['995.00', '995.0'],
    ['999.99', '999.99'],
  ])('fineness %s shows %s', (stored, shown) => {
    expect(toApiMintBar({ ...bar, fineness: stored }).fineness).toBe(shown)
  })

  it('writes weights with 3 decimals and keeps the rest', () => {
    expect(toApiMintBar({ ...bar, grossOz: '400', fineOz: '32.15' })).toEqual({
      serial: 'A',
      refiner: 'R',
      year: 2025,
      grossOz: '400.000',
      fineness: '999.9',
      fineOz: '32.150',
    })
  })
})
