import { describe, expect, it } from 'vitest'
import { lookupSearch, parseLookupInput } from './reservesApi'

describe('the reserves lookup box', () => {
  it('recognises an address, a transaction hash or a bar serial, nothing else', () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const tx = `0x${'ab'.repeat(32)}`
    expect(parseLookupInput(` ${address} `)).toEqual({ address })
    expect(parseLookupInput(tx)).toEqual({ tx })
    expect(parseLookupInput(' AB 123-457 ')).toEqual({ serial: 'AB 123-457' })
    for (const bad of ['', '0x', address.slice(0, 41), `${tx}0`, `0x${'g'.repeat(40)}`, ' - ', 'A'.repeat(65)])
      expect(parseLookupInput(bad), bad).toBeNull()
    expect(lookupSearch({ tx })).toBe(`tx=${tx}`)
    expect(lookupSearch({ address })).toBe(`address=${address}`)
    expect(lookupSearch({ serial: 'AB 123' })).toBe('serial=AB+123')
  })
})
