import { describe, expect, it } from 'vitest'
import { formatUtc } from './formatUtc'

describe('formatUtc', () => {
  it('writes a Date and an ISO string the same way, in UTC to the second', () => {
    expect(formatUtc(new Date('2026-12-01T17:50:01.234Z'))).toBe('2026-12-01 17:50:01 UTC')
    expect(formatUtc('2026-12-01T17:50:01.234Z')).toBe('2026-12-01 17:50:01 UTC')
  })
  it('converts an offset to UTC', () => {
    expect(formatUtc('2026-12-01T18:50:01+01:00')).toBe('2026-12-01 17:50:01 UTC')
  })
  it('writes a dash for no time or an unreadable one', () => {
    expect(formatUtc(null)).toBe('—')
    expect(formatUtc(undefined)).toBe('—')
    expect(formatUtc('not a time')).toBe('—')
  })
})
