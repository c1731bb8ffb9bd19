import { describe, expect, it } from 'vitest'
import { createSingleFlightCache } from './createSingleFlightCache'

function clock() {
  let t = 0
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

/** a load whose reads are counted and settled by the test */
function reads<V>() {
  const settle: { resolve: (v: V) => void; reject: (e: unknown) => void }[] = []
  return {
    count: () => settle.length,
    load: () => new Promise<V>((resolve, reject) => settle.push({ resolve, reject })),
    resolve: (i: number, v: V) => settle[i]?.resolve(v),
    reject: (i: number, e: unknown) => settle[i]?.reject(e),
  }
}

describe('createSingleFlightCache', () => {
  it('1,000 concurrent misses share one read, and its value serves until ttlMs after it finished', async () => {
    const c = clock()
    const cache = createSingleFlightCache<number>({ ttlMs: 1_000, now: c.now })
    const r = reads<number>()
    const waiting = Array.from({ length: 1_000 }, () => cache.get('k', r.load))
    expect(r.count()).toBe(1)
    c.advance(5_000) // a slow read: the interval starts when it finishes
    r.resolve(0, 7)
    expect(new Set(await Promise.all(waiting))).toEqual(new Set([7]))
    c.advance(999)
    expect(await cache.get('k', r.load)).toBe(7)
    expect(r.count()).toBe(1)
    c.advance(1)
    const next = cache.get('k', r.load)
    expect(r.count()).toBe(2)
    r.resolve(1, 8)
    expect(await next).toBe(8)
  })

  it('keys are apart', async () => {
    const cache = createSingleFlightCache<string>({ ttlMs: 1_000 })
    expect(await cache.get('a', async () => 'A')).toBe('A')
    expect(await cache.get('b', async () => 'B')).toBe('B')
    expect(await cache.get('a', async () => 'not read')).toBe('A')
  })

  it('a failed read reaches every caller waiting on it, and is not kept', async () => {
    const cache = createSingleFlightCache<number>({ ttlMs: 1_000 })
    const r = reads<number>()
    const waiting = [cache.get('k', r.load), cache.get('k', r.load)]
    r.reject(0, new Error('down'))
    for (const w of waiting) await expect(w).rejects.toThrow('down')
    const again = cache.get('k', r.load)
    expect(r.count()).toBe(2)
    r.resolve(1, 1)
    expect(await again).toBe(1)
    // a load that throws at once is a failed read too
    await expect(
      cache.get('sync', () => {
        throw new Error('at once')
      }),
    ).rejects.toThrow('at once')
  })

  it('keeps at most maxEntries, and not the values retain refuses', async () => {
    const cache = createSingleFlightCache<number>({ ttlMs: 60_000, maxEntries: 2, retain: (v) => v < 100 })
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => 1)
    let loads = 0
    const load = async () => {
      loads++
      return 2
    }
    expect(await cache.get('a', load)).toBe(2) // a was the oldest: gone
    expect(await cache.get('c', load)).toBe(1)
    expect(await cache.get('big', async () => 500)).toBe(500)
    expect(await cache.get('big', async () => 501)).toBe(501)
    expect(loads).toBe(1)
  })

  it('clear forgets the values; a read in flight still settles for its callers', async () => {
    const cache = createSingleFlightCache<number>({ ttlMs: 60_000 })
    await cache.get('k', async () => 1)
    const r = reads<number>()
    cache.clear()
    const first = cache.get('k', r.load)
    cache.clear()
    const second = cache.get('k', r.load)
    expect(r.count()).toBe(2)
    r.resolve(0, 10)
    r.resolve(1, 20)
    expect([await first, await second]).toEqual([10, 20])
    expect(await cache.get('k', async () => 30)).toBe(20)
  })
})
