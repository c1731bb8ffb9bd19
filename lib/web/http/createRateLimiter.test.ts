import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './createRateLimiter'

function clock() {
  let t = 0
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('createRateLimiter', () => {
  it('lets a client make `burst` requests at once, then refuses with the time until the next token', () => {
    const c = clock()
    const limiter = createRateLimiter({ burst: 3, perSecond: 2, now: c.now })
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true])
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 500 })
    c.advance(250)
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 250 })
    c.advance(250)
    expect(limiter.take('a')).toEqual({ allowed: true })
    expect(limiter.take('a').allowed).toBe(false)
  })

  it('keeps one bucket per client: another client is not held back', () => {
    const c = clock()
    const limiter = createRateLimiter({ burst: 1, perSecond: 1, now: c.now })
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(false)
    expect(limiter.take('b').allowed).toBe(true)
  })

  it('refills up to the burst, never beyond', () => {
    const c = clock()
    const limiter = createRateLimiter({ burst: 2, perSecond: 10, now: c.now })
    limiter.take('a')
    c.advance(60_000)
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, false])
  })

  it('remembers at most maxClients, forgetting the least recently seen', () => {
    const c = clock()
    const limiter = createRateLimiter({ burst: 1, perSecond: 1, maxClients: 2, now: c.now })
    limiter.take('a')
    limiter.take('b')
    limiter.take('a') // refused, but seen: b is now the oldest
    limiter.take('c') // b forgotten
    expect(limiter.take('a').allowed).toBe(false)
    expect(limiter.take('b').allowed).toBe(true)
  })

  it('refuses settings that would let nothing through', () => {
    expect(() => createRateLimiter({ burst: 0, perSecond: 1 })).toThrow(RangeError)
    expect(() => createRateLimiter({ burst: 1, perSecond: 0 })).toThrow(RangeError)
  })
})
