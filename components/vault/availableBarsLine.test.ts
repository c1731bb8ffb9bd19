import { describe, expect, it } from 'vitest'
import { availableBarsLine } from './availableBarsLine'

describe('availableBarsLine', () => {
  it('says the real count, not the page size ("10+ available bars" when there are 2,000)', () => {
    expect(availableBarsLine({ shown: 10, total: 2000, vault: 'LDN-1', q: '' })).toBe(
      '2,000 available bars in LDN-1, 10 shown.',
    )
  })
  it('says nothing of a page when every bar is shown', () => {
    expect(availableBarsLine({ shown: 1, total: 1, vault: 'LDN-1', q: 'AB' })).toBe(
      '1 available bar in LDN-1 matching “AB”.',
    )
    expect(availableBarsLine({ shown: 3, total: null, vault: 'LDN-1', q: '' })).toBe('3 available bars in LDN-1.')
  })
})
