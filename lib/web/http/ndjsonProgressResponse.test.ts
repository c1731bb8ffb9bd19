import { describe, expect, it } from 'vitest'
import { PayloadTooLargeError } from '@/lib/web/errors/request'
import { StaleBarListError } from '@/lib/web/errors/vault'
import { acceptsNdjson, ndjsonProgressResponse } from './ndjsonProgressResponse'

async function lines(res: Response): Promise<unknown[]> {
  return (await res.text())
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown)
}

describe('ndjsonProgressResponse', () => {
  it('answers 200 at once, a line per report, then the result', async () => {
    const res = ndjsonProgressResponse<{ phase: string; done: number }>({
      run: async (progress) => {
        progress({ phase: 'receive', done: 1 })
        progress({ phase: 'apply', done: 2 })
        return { status: 201, body: { added: 2n } }
      },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(res.headers.get('cache-control')).toContain('no-transform')
    expect(await lines(res)).toEqual([
      { type: 'progress', phase: 'receive', done: 1 },
      { type: 'progress', phase: 'apply', done: 2 },
      { type: 'result', status: 201, body: { added: '2' } },
    ])
  })

  it('a refusal is the result line, with the status and error shape the request answers without the header', async () => {
    const asOf = new Date('2026-12-01T00:00:00Z')
    let drained = false
    const res = ndjsonProgressResponse({
      run: async (progress) => {
        progress({ phase: 'receive', done: 10 })
        throw new StaleBarListError({ vault: 'LDN-1', asOf, latestAsOf: asOf })
      },
      onError: async () => {
        drained = true
      },
    })
    const [first, last] = await lines(res)
    expect(first).toEqual({ type: 'progress', phase: 'receive', done: 10 })
    expect(last).toMatchObject({ type: 'result', status: 409, body: { error: { code: 'stale_bar_list' } } })
    expect(drained).toBe(true)
  })

  it('what the clean-up throws is the result instead (the rest of the body over the limit: 413)', async () => {
    const res = ndjsonProgressResponse({
      run: async () => {
        throw new Error('a bug')
      },
      onError: async () => {
        throw new PayloadTooLargeError({ limitBytes: 10 })
      },
    })
    expect(await lines(res)).toEqual([
      { type: 'result', status: 413, body: { error: expect.objectContaining({ code: 'payload_too_large' }) } },
    ])
  })

  it('is asked for by the Accept header only', () => {
    const req = (accept?: string) => new Request('http://x/', accept ? { headers: { accept } } : {})
    expect(acceptsNdjson(req('application/x-ndjson'))).toBe(true)
    expect(acceptsNdjson(req('application/json, application/x-ndjson;q=0.9'))).toBe(true)
    expect(acceptsNdjson(req('application/json'))).toBe(false)
    expect(acceptsNdjson(req())).toBe(false)
  })
})
