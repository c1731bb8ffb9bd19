import { describe, expect, it } from 'vitest'
import { reserveLookupQuerySchema } from './schemas'

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const tx = `0x${'ab'.repeat(32)}`

describe('reserveLookupQuerySchema', () => {
  it('takes exactly one of address, tx and serial', () => {
    expect(reserveLookupQuerySchema.parse({ address })).toEqual({ address })
    expect(reserveLookupQuerySchema.parse({ tx })).toEqual({ tx })
    expect(reserveLookupQuerySchema.parse({ serial: 'AB 123-457' })).toEqual({ serial: 'AB 123-457' })
    expect(reserveLookupQuerySchema.safeParse({}).success).toBe(false)
    expect(reserveLookupQuerySchema.safeParse({ address, tx }).success).toBe(false)
    expect(reserveLookupQuerySchema.safeParse({ address, serial: 'AB123457' }).success).toBe(false)
    expect(reserveLookupQuerySchema.safeParse({ tx, serial: 'AB123457' }).success).toBe(false)
  })

  it('refuses malformed values and repeated keys', () => {
    for (const bad of [
      { address: '0x123' },
      { address: `${address}00` },
      { tx: tx.slice(0, 60) },
      { tx: `0x${'zz'.repeat(32)}` },
      { address: [address, address] },
      { serial: '' },
      { serial: 'x'.repeat(65) },
      { serial: ['AB1', 'AB2'] },
    ]) {
      expect(reserveLookupQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})
