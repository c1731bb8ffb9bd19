import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takeFaultCounts } from '@/lib/ops/faultCounts'
import { createRetryingFetch, retryAfterMs } from './createRetryingFetch'

describe('createRetryingFetch', () => {
  let server: Server
  let url: string
  /** the statuses the next requests get, in order; then 200 */
  let script: number[] = []
  let seen = 0
  beforeAll(async () => {
    server = createServer((_req, res) => {
      seen++
      const status = script.shift() ?? 200
      res.writeHead(status, status === 429 ? { 'retry-after': '0' } : {}).end(String(status))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('retries 429 and 5xx answers, counting them, and returns the first other answer', async () => {
    takeFaultCounts()
    script = [429, 503, 429]
    seen = 0
    const res = await createRetryingFetch({ baseDelayMs: 1 })(url, { method: 'POST' })
    expect(res.status).toBe(200)
    expect(seen).toBe(4)
    expect(takeFaultCounts()).toEqual({ rpc_rate_limited: 2, rpc_retry: 3 })
  })

  it('returns a 4xx other than 408/429 at once, and the last transient answer after its retries', async () => {
    script = [400]
    seen = 0
    expect((await createRetryingFetch({ baseDelayMs: 1 })(url)).status).toBe(400)
    expect(seen).toBe(1)
    script = [502, 502, 502]
    seen = 0
    expect((await createRetryingFetch({ retries: 2, baseDelayMs: 1 })(url)).status).toBe(502)
    expect(seen).toBe(3)
  })

  it('retries a refused connection, and stops when the caller aborts', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('timed out')), 300)
    takeFaultCounts()
    await expect(
      createRetryingFetch({ baseDelayMs: 50 })('http://127.0.0.1:1', { signal: controller.signal }),
    ).rejects.toThrow()
    expect(takeFaultCounts().rpc_retry).toBeGreaterThan(0)
  })

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('2')).toBe(2_000)
    expect(retryAfterMs(null)).toBeUndefined()
    expect(retryAfterMs('soon')).toBeUndefined()
    const inFive = new Date(Date.now() + 5_000).toUTCString()
    expect(retryAfterMs(inFive)).toBeGreaterThan(3_000)
  })
})
