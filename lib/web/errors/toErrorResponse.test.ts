import { describe, expect, it, vi } from 'vitest'
import { BaseError, isBaseError } from '@/lib/errors/BaseError'
import { errorStatus } from '@/lib/errors/http'
import { BarAlreadyUsedError, IdempotencyConflictError } from '@/lib/errors/mint'
import { KmsPublicKeyError } from '@/worker/errors/kms'
import { ForbiddenError, UnauthenticatedError } from './auth'
import { NotReadyError } from './ops'
import {
  MalformedJsonError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './request'
import { ConflictError, NotFoundError } from './resource'
import { type ErrorLogEntry, toErrorResponse } from './toErrorResponse'
import { BarMismatchError, BarNotInVaultError, StaleBarListError } from './vault'

async function bodyOf(res: Response) {
  return (await res.json()) as {
    error: { code: string; message: string; issues?: { path: string; message: string }[] }
  }
}

describe('errorStatus (the one table)', () => {
  it('maps every code of docs/api.md to its status', () => {
    expect(errorStatus).toMatchObject({
      malformed_json: 400,
      payload_too_large: 413,
      unsupported_media_type: 415,
      unauthenticated: 401,
      forbidden: 403,
      not_found: 404,
      bar_already_used: 409,
      idempotency_conflict: 409,
      validation_failed: 422,
      internal_error: 500,
      not_ready: 503,
      rate_limited: 429,
      method_not_allowed: 405,
      bar_not_in_vault: 422,
      bar_mismatch: 422,
      stale_bar_list: 409,
    })
  })
})

describe('toErrorResponse', () => {
  const cases: [BaseError, number, string][] = [
    [new ValidationError([{ path: 'amount', message: 'required' }]), 422, 'validation_failed'],
    [new MalformedJsonError(), 400, 'malformed_json'],
    [new PayloadTooLargeError({ limitBytes: 65536 }), 413, 'payload_too_large'],
    [new UnsupportedMediaTypeError(), 415, 'unsupported_media_type'],
    [new MethodNotAllowedError({ method: 'PUT' }), 405, 'method_not_allowed'],
    [new RateLimitedError(), 429, 'rate_limited'],
    [new UnauthenticatedError(), 401, 'unauthenticated'],
    [new ForbiddenError(), 403, 'forbidden'],
    [new NotFoundError({ what: 'Order' }), 404, 'not_found'],
    [new ConflictError('Job already finished.'), 409, 'conflict'],
    [new BarAlreadyUsedError({ bars: [{ serial: 'AB1', refiner: 'Valcambi SA', index: 1 }] }), 409, 'bar_already_used'],
    [new IdempotencyConflictError(), 409, 'idempotency_conflict'],
    [new NotReadyError(), 503, 'not_ready'],
    [
      new BarNotInVaultError({ vault: 'LDN-1', bars: [{ serial: 'AB1', refiner: 'V', index: 0 }] }),
      422,
      'bar_not_in_vault',
    ],
    [
      new BarMismatchError({
        mismatches: [
          { serial: 'AB1', refiner: 'V', index: 0, field: 'grossOz', inventory: '401.125', given: '401.000' },
        ],
      }),
      422,
      'bar_mismatch',
    ],
    [new StaleBarListError({ vault: 'LDN-1', asOf: new Date(0), latestAsOf: new Date(1) }), 409, 'stale_bar_list'],
  ]

  it.each(cases)('%s -> its status and code, as JSON', async (error, status, code) => {
    const log = vi.fn()
    const res = toErrorResponse(error, { log })
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await bodyOf(res)
    expect(body.error.code).toBe(code)
    expect(body.error.message).toBe(error.message)
    expect(log).not.toHaveBeenCalled()
  })

  it('includes issues when there are any', async () => {
    const res = toErrorResponse(new ValidationError([{ path: 'vaultProof.bars.0.fineOz', message: 'must be 401.084' }]))
    expect(await bodyOf(res)).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The request is invalid.',
        issues: [{ path: 'vaultProof.bars.0.fineOz', message: 'must be 401.084' }],
      },
    })
    expect(Object.keys((await bodyOf(toErrorResponse(new ForbiddenError()))).error)).toEqual(['code', 'message'])
  })

  it('names the used bar by its index in issues', async () => {
    const body = await bodyOf(
      toErrorResponse(new BarAlreadyUsedError({ bars: [{ serial: 'AB1', refiner: 'V', index: 3 }] })),
    )
    expect(body.error.issues?.[0]?.path).toBe('vaultProof.bars.3')
  })

  it('sets Retry-After for rate_limited', () => {
    expect(toErrorResponse(new RateLimitedError({ retryAfterSeconds: 12.2 })).headers.get('retry-after')).toBe('13')
  })

  it('turns anything unknown into a generic 500 and logs it (stack included) server-side only', async () => {
    const entries: ErrorLogEntry[] = []
    const secret = new Error('duplicate key value violates unique constraint "users_email_unique" at postgres://u:p@db')
    const res = toErrorResponse(secret, { log: (e) => entries.push(e), context: { path: '/api/x' } })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } })
    expect(text).not.toMatch(/duplicate|postgres|stack|at /)
    expect(entries).toHaveLength(1)
    expect(entries[0].err).toBe(secret)
    expect(entries[0].context).toEqual({ path: '/api/x' })
  })

  it('the default log line has URLs redacted (an RPC URL carries its API key; issue 13)', () => {
    const lines: unknown[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(line))
    try {
      toErrorResponse(
        new Error('HTTP request failed. URL: https://mainnet.infura.io/v3/SECRETKEY', {
          cause: new Error('at postgres://u:SECRETKEY@db/x'),
        }),
      )
    } finally {
      spy.mockRestore()
    }
    expect(lines).toHaveLength(1)
    const line = String(lines[0])
    expect(line).toContain('https://mainnet.infura.io/[redacted]')
    expect(line).not.toContain('SECRETKEY')
  })

  it('handles thrown non-errors', async () => {
    for (const thrown of ['boom', null, undefined, 42, { code: 'forbidden', message: 'fake' }]) {
      const res = toErrorResponse(thrown, { log: () => {} })
      expect(res.status).toBe(500)
      expect((await bodyOf(res)).error.code).toBe('internal_error')
    }
  })

  it('never sends the cause of a known error', async () => {
    const err = new MalformedJsonError({ cause: new SyntaxError('Unexpected token } in JSON at position 7') })
    const text = await toErrorResponse(err).text()
    expect(text).not.toContain('position 7')
  })

  it('logs a BaseError only when it is a 500', () => {
    const log = vi.fn()
    toErrorResponse(new BaseError('internal_error', 'Internal server error', { cause: new Error('x') }), { log })
    expect(log).toHaveBeenCalledTimes(1)
    toErrorResponse(new NotReadyError('db down'), { log })
    expect(log).toHaveBeenCalledTimes(1)
  })
})

describe('BaseError', () => {
  it('keeps code, issues, cause and a class name', () => {
    const cause = new Error('root')
    const e = new ValidationError([{ path: 'a', message: 'b' }], 'bad', { cause })
    expect(e).toBeInstanceOf(BaseError)
    expect(e).toBeInstanceOf(Error)
    expect(e.name).toBe('ValidationError')
    expect(e.code).toBe('validation_failed')
    expect(e.cause).toBe(cause)
    expect(isBaseError(e)).toBe(true)
    expect(isBaseError(new Error('x'))).toBe(false)
  })
  it('is recognised across duplicated module copies by its brand', () => {
    const foreign = Object.assign(new Error('x'), { code: 'forbidden', [Symbol.for('mintdesk.BaseError')]: true })
    expect(isBaseError(foreign)).toBe(true)
  })
})

describe('toErrorResponse for internal BaseErrors', () => {
  it('never sends the message of a 500 BaseError to the client', async () => {
    const res = toErrorResponse(new BaseError('internal_error', 'KMS key 1234abcd refused Sign'), { log: () => {} })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(text).not.toContain('1234abcd')
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } })
  })

  it('sends internal_error for every internal code, and logs the specific one', async () => {
    const log = vi.fn()
    const res = toErrorResponse(new KmsPublicKeyError('1234abcd', 'key spec is RSA_2048'), { log })
    expect(res.status).toBe(500)
    expect(await bodyOf(res)).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } })
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ status: 500, code: 'kms_public_key_invalid' }))
  })
})

describe('toErrorResponse when the database cannot be reached', () => {
  it('answers 503 not_ready with Retry-After, for a refused connection deep in the causes', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    const wrapped = new Error('Failed query: insert into mint_orders ...', { cause: refused })
    const res = toErrorResponse(wrapped, { log: () => {} })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    const text = await res.text()
    expect(text).not.toContain('mint_orders')
    expect(JSON.parse(text).error.code).toBe('not_ready')
  })

  it('answers 503 for a server shutting down (SQLSTATE 57P01)', () => {
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
    expect(toErrorResponse(shutdown, { log: () => {} }).status).toBe(503)
  })

  it('still answers 500 for other errors', () => {
    const other = Object.assign(new Error('duplicate key'), { code: '23505' })
    expect(toErrorResponse(other, { log: () => {} }).status).toBe(500)
  })
})
