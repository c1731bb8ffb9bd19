import { describe, expect, it } from 'vitest'
import { isBaseError } from '@/lib/errors/BaseError'
import { ApiError } from './api'

describe('ApiError.from', () => {
  it('reads the API error body: status, code, message and issues', async () => {
    const res = new Response(
      JSON.stringify({
        error: {
          code: 'validation_failed',
          message: 'The request is invalid.',
          issues: [{ path: 'to', message: 'bad' }, { path: 1 }],
        },
      }),
      { status: 422 },
    )
    const error = await ApiError.from(res)
    expect(error).toBeInstanceOf(ApiError)
    expect(isBaseError(error)).toBe(true)
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 422,
      code: 'validation_failed',
      message: 'The request is invalid.',
    })
    expect(error.issues).toEqual([{ path: 'to', message: 'bad' }])
  })

  it('still gives a usable error for an answer that is not the API shape', async () => {
    const error = await ApiError.from(new Response('<html>Bad gateway</html>', { status: 502 }))
    expect(error).toMatchObject({ status: 502, code: 'http_error', message: 'The server answered 502.', issues: [] })
  })

  it('an unknown code becomes http_error, the message is kept, and serverCode keeps the code as sent', async () => {
    const error = await ApiError.from(
      new Response(JSON.stringify({ error: { code: 'teapot', message: 'short and stout' } }), { status: 418 }),
    )
    expect(error).toMatchObject({ status: 418, code: 'http_error', serverCode: 'teapot', message: 'short and stout' })
    const known = await ApiError.from(
      new Response(JSON.stringify({ error: { code: 'self_approval', message: 'no' } }), { status: 403 }),
    )
    expect(known).toMatchObject({ code: 'self_approval', serverCode: 'self_approval' })
  })
})
