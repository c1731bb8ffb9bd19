import { describe, expect, it } from 'vitest'
import { createLoginThrottle } from './loginThrottle'

const MIN = 60_000

function clock(start = 1_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

function fail(throttle: ReturnType<typeof createLoginThrottle>, params: { email: string; ip: string | null }) {
  const a = throttle.attempt(params)
  expect(a.allowed).toBe(true)
}

describe('createLoginThrottle', () => {
  it('refuses the 6th attempt after 5 failures for one email within 15 minutes', () => {
    const c = clock()
    const throttle = createLoginThrottle({ now: c.now })
    for (let i = 0; i < 5; i++) {
      fail(throttle, { email: 'staff@mintdesk.local', ip: `10.0.0.${i}` })
      c.advance(MIN)
    }
    const sixth = throttle.attempt({ email: 'staff@mintdesk.local', ip: '10.0.0.99' })
    expect(sixth.allowed).toBe(false)
    if (!sixth.allowed) expect(sixth.retryAfterMs).toBe(15 * MIN - 5 * MIN)
  })

  it('treats emails case-insensitively', () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 5; i++)
      fail(throttle, { email: i % 2 ? 'Staff@MintDesk.local' : ' staff@mintdesk.local ', ip: null })
    expect(throttle.attempt({ email: 'STAFF@mintdesk.local', ip: null }).allowed).toBe(false)
  })

  it('refuses an IP after 5 failures across different emails', () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 5; i++) fail(throttle, { email: `user${i}@x.test`, ip: '203.0.113.7' })
    expect(throttle.attempt({ email: 'fresh@x.test', ip: '203.0.113.7' }).allowed).toBe(false)
    expect(throttle.attempt({ email: 'fresh@x.test', ip: '203.0.113.8' }).allowed).toBe(true)
  })

  it('can allow an IP more failures than an email (offices behind one NAT)', () => {
    const throttle = createLoginThrottle({ maxFailuresPerIp: 8 })
    for (let i = 0; i < 8; i++) fail(throttle, { email: `user${i}@x.test`, ip: '203.0.113.7' })
    expect(throttle.attempt({ email: 'fresh@x.test', ip: '203.0.113.7' }).allowed).toBe(false)
    for (let i = 0; i < 5; i++) fail(throttle, { email: 'one@x.test', ip: `198.51.100.${i}` })
    expect(throttle.attempt({ email: 'one@x.test', ip: '198.51.100.77' }).allowed).toBe(false)
  })

  it('is a sliding window: failures older than 15 minutes stop counting', () => {
    const c = clock()
    const throttle = createLoginThrottle({ now: c.now })
    for (let i = 0; i < 5; i++) fail(throttle, { email: 'a@x.test', ip: null })
    expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(false)
    c.advance(15 * MIN - 1)
    expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(false)
    c.advance(1)
    expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(true)
  })

  it('does not count refused attempts (they cannot extend the lockout)', () => {
    const c = clock()
    const throttle = createLoginThrottle({ now: c.now })
    for (let i = 0; i < 5; i++) fail(throttle, { email: 'a@x.test', ip: null })
    for (let i = 0; i < 20; i++) {
      c.advance(30_000)
      expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(false)
    }
    c.advance(15 * MIN - 20 * 30_000)
    expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(true)
  })

  it('a success clears the email and takes its own attempt back from the IP', () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 4; i++) fail(throttle, { email: 'a@x.test', ip: '198.51.100.1' })
    const ok = throttle.attempt({ email: 'a@x.test', ip: '198.51.100.1' })
    expect(ok.allowed).toBe(true)
    if (ok.allowed) ok.succeeded()
    // email cleared: 4 more failures are allowed for it...
    for (let i = 0; i < 4; i++) {
      const a = throttle.attempt({ email: 'a@x.test', ip: '198.51.100.2' })
      expect(a.allowed).toBe(true)
    }
    // ...but the IP keeps its 4 earlier failures: one more, then refused
    fail(throttle, { email: 'b@x.test', ip: '198.51.100.1' })
    expect(throttle.attempt({ email: 'c@x.test', ip: '198.51.100.1' }).allowed).toBe(false)
  })

  it('counts an attempt as failed until it succeeds, so concurrent guesses cannot slip through', () => {
    const throttle = createLoginThrottle()
    const inFlight = Array.from({ length: 50 }, () => throttle.attempt({ email: 'victim@x.test', ip: null }))
    expect(inFlight.filter((a) => a.allowed)).toHaveLength(5)
  })

  it('forgets the least recently used keys past maxKeys', () => {
    const throttle = createLoginThrottle({ maxKeys: 3 })
    for (let i = 0; i < 5; i++) fail(throttle, { email: 'old@x.test', ip: null })
    expect(throttle.attempt({ email: 'old@x.test', ip: null }).allowed).toBe(false)
    for (const e of ['a', 'b', 'c']) fail(throttle, { email: `${e}@x.test`, ip: null })
    expect(throttle.attempt({ email: 'old@x.test', ip: null }).allowed).toBe(true)
  })

  it('reset() forgets everything', () => {
    const throttle = createLoginThrottle()
    for (let i = 0; i < 5; i++) fail(throttle, { email: 'a@x.test', ip: null })
    throttle.reset()
    expect(throttle.attempt({ email: 'a@x.test', ip: null }).allowed).toBe(true)
  })
})
