import { describe, expect, it } from 'vitest'
import { normalizeBarKey } from './normalizeBarKey'

describe('normalizeBarKey', () => {
  it.each([
    ['AB123456', 'AB123456'],
    ['ab-123 456', 'AB123456'],
    ['Valcambi SA', 'VALCAMBISA'],
    ['  valcambi  sa ', 'VALCAMBISA'],
    ['Argor-Heraeus SA', 'ARGORHERAEUSSA'],
    ['A/B.12_3', 'A/B.12_3'],
  ])('%j -> %j', (value, key) => {
    expect(normalizeBarKey(value)).toEqual({ ok: true, key })
  })

  it('makes one key of the spellings of one bar', () => {
    const keys = ['AB-1234', 'ab1234', 'AB 1234', 'a-b-1-2-3-4'].map((v) => normalizeBarKey(v))
    expect(new Set(keys.map((k) => (k.ok ? k.key : null)))).toEqual(new Set(['AB1234']))
  })

  it('refuses a Cyrillic look-alike, naming the character and its ASCII twin', () => {
    const result = normalizeBarKey('\u0410B123456') // Cyrillic А
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.message).toContain('U+0410')
      expect(result.message).toContain("looks like 'A'")
      expect(result.message).toContain('position 1')
    }
  })

  it('refuses fullwidth digits and letters, naming what to type', () => {
    const result = normalizeBarKey('AB\uff11\uff12') // fullwidth 1 2
    expect(result).toEqual({ ok: false, message: expect.stringContaining("type '1'") })
    expect(normalizeBarKey('\uff21B1')).toEqual({ ok: false, message: expect.stringContaining("looks like 'A'") })
  })

  it.each(['PAMP\u00a0SA', 'AB\u20131', 'Ögussa', 'AB\u200b1', '金'])('refuses other non-ASCII text: %j', (value) => {
    expect(normalizeBarKey(value).ok).toBe(false)
  })

  it('refuses control characters and text without a letter or digit', () => {
    expect(normalizeBarKey('AB\t1')).toEqual({ ok: false, message: expect.stringContaining('control character') })
    expect(normalizeBarKey(' - - ')).toEqual({ ok: false, message: expect.stringContaining('letter or digit') })
  })
})
