import { describe, expect, it } from 'vitest'
import { sessionPastLifetime } from './sessionPastLifetime'

describe('sessionPastLifetime', () => {
  const now = new Date('2026-11-30T12:00:00Z')
  const nowSeconds = Math.floor(now.getTime() / 1000)
  const past = (authTime: number) => sessionPastLifetime({ claims: { authTime }, now, maxAgeSeconds: 12 * 3600 })

  it('stands until the lifetime is reached, and not a second longer', () => {
    expect(past(nowSeconds - 60)).toBe(false)
    expect(past(nowSeconds - 12 * 3600 + 1)).toBe(false)
    expect(past(nowSeconds - 12 * 3600)).toBe(true)
    expect(past(nowSeconds - 13 * 3600)).toBe(true)
  })
})
