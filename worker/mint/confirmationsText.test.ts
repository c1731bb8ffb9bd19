import { describe, expect, it } from 'vitest'
import { confirmationsText } from './confirmationsText'

describe('confirmationsText', () => {
  it('says confirmation once, confirmations otherwise', () => {
    expect(confirmationsText(1n)).toBe('1 confirmation')
    expect(confirmationsText(1)).toBe('1 confirmation')
    expect(confirmationsText(2n)).toBe('2 confirmations')
    expect(confirmationsText(12)).toBe('12 confirmations')
  })
})
