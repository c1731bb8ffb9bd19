import { describe, expect, it } from 'vitest'
import { barListAsOf } from './barListAsOf'

describe('barListAsOf', () => {
  it('is the whole Unix second, the milliseconds dropped', () => {
    expect(barListAsOf(new Date('2026-01-01T06:00:00.000Z'))).toBe(1767247200n)
    expect(barListAsOf(new Date('2026-01-01T06:00:00.999Z'))).toBe(1767247200n)
    expect(barListAsOf(new Date('2026-01-01T06:00:01.000Z'))).toBe(1767247201n)
  })

  it('rounds down before 1970 too (a second is never rounded toward zero)', () => {
    expect(barListAsOf(new Date(-1))).toBe(-1n)
  })
})
