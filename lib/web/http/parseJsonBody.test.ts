import { describe, expect, it } from 'vitest'
import { BaseError } from '@/lib/errors/BaseError'
import { isJsonContentType, parseJsonBody } from './parseJsonBody'

const url = 'http://localhost:3000/api/x'

function post(body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return new Request(url, { method: 'POST', body, headers, duplex: 'half' } as RequestInit)
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'ok'
  } catch (e) {
    if (e instanceof BaseError) return e.code
    throw e
  }
}

/** A body stream that yields `chunks` chunks of `size` bytes and records how many were pulled. */
function stream(chunks: number, size: number) {
  let pulled = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close()
      pulled++
      controller.enqueue(new Uint8Array(size).fill(0x20))
    },
  })
  return { body, pulled: () => pulled }
}

describe('parseJsonBody', () => {
  it('parses a JSON body', async () => {
    expect(await parseJsonBody(post('{"a":[1,"2"]}'))).toEqual({ a: [1, '2'] })
    expect(await parseJsonBody(post('{"a":1}', { 'content-type': 'Application/JSON; charset=UTF-8' }))).toEqual({
      a: 1,
    })
  })

  it('415 unless application/json', async () => {
    expect(await codeOf(parseJsonBody(post('{}', { 'content-type': 'text/plain' })))).toBe('unsupported_media_type')
    expect(await codeOf(parseJsonBody(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' })))).toBe(
      'unsupported_media_type',
    )
    expect(await codeOf(parseJsonBody(post('{}', {})))).toBe('unsupported_media_type')
    expect(await codeOf(parseJsonBody(post('{}', { 'content-type': 'application/json; charset=latin1' })))).toBe(
      'unsupported_media_type',
    )
  })

  it('413 over 64 KiB, 64 KiB itself is fine', async () => {
    const exactly = `"${'x'.repeat(64 * 1024 - 2)}"`
    expect(await codeOf(parseJsonBody(post(exactly)))).toBe('ok')
    const over = `"${'x'.repeat(64 * 1024 - 1)}"`
    expect(await codeOf(parseJsonBody(post(over)))).toBe('payload_too_large')
  })

  it('413 from a Content-Length over the limit, without reading the body', async () => {
    const s = stream(1000, 1024)
    const req = post(s.body, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) })
    expect(await codeOf(parseJsonBody(req))).toBe('payload_too_large')
    expect(s.pulled()).toBeLessThanOrEqual(1)
  })

  it('counts the bytes actually read: a lying Content-Length does not help, reading stops past the limit', async () => {
    const s = stream(1000, 1024) // 1000 KiB offered
    const req = post(s.body, { 'content-type': 'application/json', 'content-length': '10' })
    expect(await codeOf(parseJsonBody(req))).toBe('payload_too_large')
    expect(s.pulled()).toBeLessThan(70) // stopped right after 64 KiB, not 1000 chunks
  })

  it('counts bytes, not characters', async () => {
    const euro = '€'.repeat(22_000) // 3 bytes each: 66 000 bytes, 22 000 characters
    expect(await codeOf(parseJsonBody(post(`"${euro}"`)))).toBe('payload_too_large')
  })

  it('400 for an empty body, invalid JSON or invalid UTF-8', async () => {
    expect(await codeOf(parseJsonBody(post('')))).toBe('malformed_json')
    expect(await codeOf(parseJsonBody(post(null)))).toBe('malformed_json')
    expect(await codeOf(parseJsonBody(post('{"a":')))).toBe('malformed_json')
    expect(await codeOf(parseJsonBody(post("{'a':1}")))).toBe('malformed_json')
    expect(await codeOf(parseJsonBody(post(new Uint8Array([0x22, 0xff, 0xfe, 0x22]))))).toBe('malformed_json')
  })

  it('honours a custom limit', async () => {
    expect(await codeOf(parseJsonBody(post('[1,2,3]'), { maxBytes: 4 }))).toBe('payload_too_large')
  })
})

describe('isJsonContentType', () => {
  it('accepts application/json with a UTF-8 charset or none', () => {
    expect(isJsonContentType('application/json')).toBe(true)
    expect(isJsonContentType('application/json;charset="utf-8"')).toBe(true)
    expect(isJsonContentType('application/jsonp')).toBe(false)
    expect(isJsonContentType('text/json')).toBe(false)
    expect(isJsonContentType(null)).toBe(false)
  })
})
