import { describe, expect, it } from 'vitest'
import { parseAddressList } from './parseAddressList'

describe('parseAddressList', () => {
  it('splits on new lines, commas and spaces, dropping empty entries', () => {
    expect(parseAddressList('0xa\n0xb, 0xc  \n\n,')).toEqual(['0xa', '0xb', '0xc'])
    expect(parseAddressList('  ')).toEqual([])
  })
})
