import { describe, expect, it } from 'vitest'
import { json, stringifyJson } from './json'

describe('json', () => {
  it('writes bigint as a decimal string (no precision lost, no throw)', () => {
    expect(stringifyJson({ wei: 802168000000000000000n, jobId: 17n, nested: [1n] })).toBe(
      '{"wei":"802168000000000000000","jobId":"17","nested":["1"]}',
    )
  })
  it('answers JSON with the status, not cached', async () => {
    const res = json({ orderId: 'x', n: 2n }, 202)
    expect(res.status).toBe(202)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.json()).toEqual({ orderId: 'x', n: '2' })
  })
})
