import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { z } from 'zod'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { ConflictError } from '@/lib/web/errors/resource'
import { createRateLimiter } from './createRateLimiter'
import { createRouteWrapper } from './createRouteWrapper'
import { json } from './json'

const staff: SessionUser = { id: 'u-staff', email: 'staff@mintdesk.local', role: 'staff' }
const admin: SessionUser = { id: 'u-admin', email: 'admin@mintdesk.local', role: 'admin' }
const APP = 'http://localhost:3000'
// the claims' dependencies, unused by these routes (none has sessionRow: 'in_handler':
// createRouteWrapperSessionRow.test.ts)
const NO_CLAIMS = { getClaims: async () => null, getSessionMaxAgeSeconds: () => 12 * 60 * 60 }

function wrapper(user: SessionUser | null, opts: { log?: () => void } = {}) {
  return createRouteWrapper({
    getUser: async () => user,
    ...NO_CLAIMS,
    getAppUrl: () => APP,
    log: opts.log ?? (() => {}),
  })
}

function request(
  method: string,
  { body, headers = {}, path = '/api/x' }: { body?: string; headers?: Record<string, string>; path?: string } = {},
) {
  return new Request(`${APP}${path}`, {
    method,
    body,
    headers: { origin: APP, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
  })
}

const ctx = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) })

async function errorOf(res: Response) {
  return (
    (await res.json()) as { error: { code: string; message: string; issues?: { path: string; message: string }[] } }
  ).error
}

const mintBody = z.object({
  to: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  vaultProof: z.object({ bars: z.array(z.object({ fineOz: z.string().regex(/^\d+\.\d{3}$/) })).min(1) }),
})

describe('route() wrapper', () => {
  it('401 unauthenticated without a session; the handler never runs', async () => {
    const handler = vi.fn()
    const res = await wrapper(null)({ roles: ['staff', 'admin'], handler })(request('GET'), ctx())
    expect(res.status).toBe(401)
    expect((await errorOf(res)).code).toBe('unauthenticated')
    expect(handler).not.toHaveBeenCalled()
  })

  it('403 forbidden without the role', async () => {
    const res = await wrapper(staff)({ roles: ['admin'], handler: () => ({}) })(request('GET'), ctx())
    expect(res.status).toBe(403)
    expect((await errorOf(res)).code).toBe('forbidden')
  })

  it('passes the user, awaited params and returns data as 200 JSON', async () => {
    const route = wrapper(admin)({
      roles: ['admin'],
      handler: ({ user, params }) => ({ who: user.email, jobId: params.jobId, big: 10n ** 20n }),
    })
    const res = await route(request('GET'), ctx({ jobId: '17' }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ who: 'admin@mintdesk.local', jobId: '17', big: '100000000000000000000' })
  })

  it('returns a handler Response as is, and 204 for nothing', async () => {
    const accepted = await wrapper(staff)({ roles: ['staff'], handler: () => json({ orderId: 'o1' }, 202) })(
      request('GET'),
      ctx(),
    )
    expect(accepted.status).toBe(202)
    const empty = await wrapper(staff)({ roles: ['staff'], handler: () => undefined })(request('GET'), ctx())
    expect(empty.status).toBe(204)
  })

  it('public routes do not look at the session', async () => {
    const getUser = vi.fn(async () => null)
    const route = createRouteWrapper({ getUser, ...NO_CLAIMS, getAppUrl: () => undefined })({
      roles: 'public',
      handler: ({ user }) => ({ user }),
    })
    const res = await route(request('GET'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ user: null })
    expect(getUser).not.toHaveBeenCalled()
  })

  describe('mutations must come from the app’s own origin', () => {
    const post = wrapper(staff)({ roles: ['staff'], handler: () => ({ ok: true }) })
    it('403 for a foreign Origin', async () => {
      const res = await post(request('POST', { headers: { origin: 'https://evil.test' } }), ctx())
      expect(res.status).toBe(403)
      expect((await errorOf(res)).code).toBe('forbidden')
    })
    it('403 with neither Origin nor Sec-Fetch-Site; ok with Sec-Fetch-Site same-origin', async () => {
      const bare = new Request(`${APP}/api/x`, { method: 'POST' })
      expect((await post(bare, ctx())).status).toBe(403)
      const fetched = new Request(`${APP}/api/x`, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } })
      expect((await post(fetched, ctx())).status).toBe(200)
    })
    it('ok for our Origin', async () => {
      expect((await post(request('POST'), ctx())).status).toBe(200)
    })
    it('GET is not checked', async () => {
      const get = wrapper(staff)({ roles: ['staff'], handler: () => ({ ok: true }) })
      expect((await get(request('GET', { headers: { origin: 'https://evil.test' } }), ctx())).status).toBe(200)
    })
  })

  describe('body', () => {
    const route = wrapper(staff)({
      roles: ['staff', 'admin'],
      body: mintBody,
      handler: ({ body }) => {
        expectTypeOf(body.vaultProof.bars).toEqualTypeOf<{ fineOz: string }[]>()
        return { bars: body.vaultProof.bars.length }
      },
    })
    const valid = JSON.stringify({ to: `0x${'a'.repeat(40)}`, vaultProof: { bars: [{ fineOz: '401.084' }] } })

    it('parses a valid body', async () => {
      const res = await route(request('POST', { body: valid }), ctx())
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ bars: 1 })
    })
    it('415 when not application/json', async () => {
      const res = await route(request('POST', { body: valid, headers: { 'content-type': 'text/plain' } }), ctx())
      expect(res.status).toBe(415)
      expect((await errorOf(res)).code).toBe('unsupported_media_type')
    })
    it('413 over 64 KiB', async () => {
      const res = await route(request('POST', { body: `"${'x'.repeat(70_000)}"` }), ctx())
      expect(res.status).toBe(413)
      expect((await errorOf(res)).code).toBe('payload_too_large')
    })
    it('400 for malformed JSON', async () => {
      const res = await route(request('POST', { body: '{"to":' }), ctx())
      expect(res.status).toBe(400)
      expect((await errorOf(res)).code).toBe('malformed_json')
    })
    it('422 with issues, paths joined with dots', async () => {
      const res = await route(
        request('POST', {
          body: JSON.stringify({ to: '0x12', vaultProof: { bars: [{ fineOz: '401.084' }, { fineOz: '1.5' }] } }),
        }),
        ctx(),
      )
      expect(res.status).toBe(422)
      const error = await errorOf(res)
      expect(error.code).toBe('validation_failed')
      expect(error.issues?.map((i) => i.path).sort()).toEqual(['to', 'vaultProof.bars.1.fineOz'])
      expect(error.issues?.every((i) => typeof i.message === 'string' && i.message.length > 0)).toBe(true)
    })
    it('checks the session before reading the body', async () => {
      const res = await wrapper(null)({ roles: ['staff'], body: mintBody, handler: () => ({}) })(
        request('POST', { body: 'not json' }),
        ctx(),
      )
      expect(res.status).toBe(401)
    })
    it('bodyOptional: no body at all is undefined; a body given is held to the schema, a wrong type still 415', async () => {
      const optional = wrapper(staff)({
        roles: ['staff'],
        body: z.strictObject({ signature: z.string() }).optional(),
        bodyOptional: true,
        handler: ({ body }) => ({ signature: body?.signature ?? null }),
      })
      expect(await (await optional(request('POST'), ctx())).json()).toEqual({ signature: null })
      const given = await optional(request('POST', { body: JSON.stringify({ signature: '0x1' }) }), ctx())
      expect(await given.json()).toEqual({ signature: '0x1' })
      expect((await optional(request('POST', { body: JSON.stringify({ other: 1 }) }), ctx())).status).toBe(422)
      const text = await optional(request('POST', { body: 'x', headers: { 'content-type': 'text/plain' } }), ctx())
      expect(text.status).toBe(415)
    })
  })

  describe('query and params', () => {
    it('parses the query string, 422 on a bad one', async () => {
      const route = wrapper(staff)({
        roles: ['staff'],
        query: z.object({
          status: z.enum(['pending', 'confirmed']).optional(),
          limit: z.coerce.number().int().max(100).default(20),
        }),
        handler: ({ query }) => query,
      })
      const ok = await route(request('GET', { path: '/api/x?status=pending&limit=5' }), ctx())
      expect(await ok.json()).toEqual({ status: 'pending', limit: 5 })
      const bad = await route(request('GET', { path: '/api/x?limit=1000' }), ctx())
      expect(bad.status).toBe(422)
      expect((await errorOf(bad)).issues?.[0]?.path).toBe('limit')
    })
    it('404 when params do not match their schema', async () => {
      const route = wrapper(staff)({
        roles: ['staff'],
        params: z.object({ orderId: z.uuid() }),
        handler: ({ params }) => ({ id: params.orderId }),
      })
      expect((await route(request('GET'), ctx({ orderId: 'nope' }))).status).toBe(404)
      const id = '0b9f6a9e-3f0c-4c39-9d2b-4b7e0d3c2a11'
      expect(await (await route(request('GET'), ctx({ orderId: id }))).json()).toEqual({ id })
    })
  })

  describe('errors', () => {
    it('maps a thrown BaseError through the table', async () => {
      const res = await wrapper(admin)({
        roles: ['admin'],
        handler: () => {
          throw new ConflictError('This job already finished.')
        },
      })(request('POST'), ctx())
      expect(res.status).toBe(409)
      expect(await errorOf(res)).toEqual({ code: 'conflict', message: 'This job already finished.' })
    })
    it('turns an unknown error into a generic 500, logged with request context', async () => {
      const log = vi.fn()
      const res = await wrapper(staff, { log })({
        roles: ['staff'],
        handler: async () => {
          throw new Error('relation "mint_orders" does not exist')
        },
      })(request('GET', { path: '/api/gold/mint' }), ctx())
      expect(res.status).toBe(500)
      const text = await res.text()
      expect(text).not.toContain('mint_orders')
      expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } })
      expect(log).toHaveBeenCalledWith(
        expect.objectContaining({ context: { method: 'GET', path: '/api/gold/mint', userId: 'u-staff' } }),
      )
    })
    it('lets framework control flow through (rethrow)', async () => {
      const control = new Error('NEXT_REDIRECT')
      const route = createRouteWrapper({
        getUser: async () => staff,
        ...NO_CLAIMS,
        getAppUrl: () => APP,
        rethrow: (e) => {
          if (e === control) throw e
        },
      })({
        roles: ['staff'],
        handler: () => {
          throw control
        },
      })
      await expect(route(request('GET'), ctx())).rejects.toBe(control)
    })
    it('a failing session lookup is a 500, not a 401', async () => {
      const route = createRouteWrapper({
        getUser: async () => {
          throw new Error('JWT secret missing')
        },
        ...NO_CLAIMS,
        getAppUrl: () => APP,
        log: () => {},
      })({ roles: ['staff'], handler: () => ({}) })
      expect((await route(request('GET'), ctx())).status).toBe(500)
    })
  })

  it('types: user is non-null on role routes and null on public ones; body is undefined without a schema', () => {
    wrapper(staff)({
      roles: ['staff'],
      handler: ({ user, body, query }) => {
        expectTypeOf(user).toEqualTypeOf<SessionUser>()
        expectTypeOf(body).toEqualTypeOf<undefined>()
        expectTypeOf(query).toEqualTypeOf<undefined>()
      },
    })
    wrapper(staff)({
      roles: 'public',
      handler: ({ user }) => {
        expectTypeOf(user).toEqualTypeOf<null>()
      },
    })
  })
})

describe('route() wrapper: rawBody (a bar list as JSON or CSV, up to its own cap)', () => {
  const route = (maxBodyBytes?: number) =>
    wrapper(admin)({
      roles: ['admin'],
      rawBody: { mediaTypes: ['application/json', 'text/csv'] },
      maxBodyBytes,
      handler: async ({ rawBody }) => ({ mediaType: rawBody?.mediaType, length: (await textOf(rawBody)).length }),
    })
  const textOf = async (raw: { chunks: AsyncIterable<string> } | undefined) => {
    let text = ''
    for await (const chunk of raw?.chunks ?? []) text += chunk
    return text
  }

  it('hands the text and its media type to the handler', async () => {
    const res = await route()(
      request('POST', { body: 'serial,refiner\nA,B\n', headers: { 'content-type': 'text/csv; charset=utf-8' } }),
      ctx(),
    )
    expect(await res.json()).toEqual({ mediaType: 'text/csv', length: 19 })
  })

  it('415 for another media type, naming the ones taken', async () => {
    const res = await route()(request('POST', { body: 'x', headers: { 'content-type': 'text/plain' } }), ctx())
    expect(res.status).toBe(415)
    expect((await errorOf(res)).message).toBe('The request body must be application/json or text/csv.')
  })

  it('takes a body over 64 KiB when the route allows more, and 413 payload_too_large past its own cap', async () => {
    const big = 'x'.repeat(100 * 1024)
    expect((await route()(request('POST', { body: big, headers: { 'content-type': 'text/csv' } }), ctx())).status).toBe(
      413,
    )
    const allowed = await route(1024 * 1024)(
      request('POST', { body: big, headers: { 'content-type': 'text/csv' } }),
      ctx(),
    )
    expect(await allowed.json()).toEqual({ mediaType: 'text/csv', length: big.length })
    const over = await route((64 * 1024 * 1024) / 64)(
      request('POST', { body: 'y'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'text/csv' } }),
      ctx(),
    )
    expect(over.status).toBe(413)
    expect(await errorOf(over)).toEqual({
      code: 'payload_too_large',
      message: 'The request body is larger than 1 MiB.',
    })
  })

  it('hands the body over in chunks as it arrives, never read ahead of the handler', async () => {
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        if (pulled > 100) controller.close()
        else controller.enqueue(new TextEncoder().encode('x'.repeat(1024)))
      },
    })
    const seen: number[] = []
    const res = await wrapper(admin)({
      roles: ['admin'],
      rawBody: { mediaTypes: ['text/csv'] },
      maxBodyBytes: 1024 * 1024,
      handler: async ({ rawBody }) => {
        for await (const chunk of rawBody?.chunks ?? []) {
          seen.push(pulled)
          if (chunk.length !== 1024) throw new Error('chunks are not passed on as they come')
        }
        return { chunks: seen.length }
      },
    })(
      new Request(`${APP}/api/x`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { origin: APP, 'content-type': 'text/csv' },
      } as RequestInit),
      ctx(),
    )
    expect(await res.json()).toEqual({ chunks: 100 })
    // the stream was pulled as the handler went, a chunk or two ahead, not read up front
    expect(seen[0]).toBeLessThan(5)
  })

  it('a handler that refuses early: the rest of the body is read and thrown away, its answer kept; 413 if the rest is over the cap', async () => {
    let read = 0
    const body = (chunks: number) =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (read >= chunks) return controller.close()
          read++
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x61))
        },
      })
    const refusing = wrapper(admin)({
      roles: ['admin'],
      rawBody: { mediaTypes: ['text/csv'] },
      maxBodyBytes: 1024 * 1024,
      handler: async ({ rawBody }) => {
        for await (const _ of rawBody?.chunks ?? []) throw new ConflictError('refused at the first chunk')
      },
    })
    const post = (chunks: number) =>
      refusing(
        new Request(`${APP}/api/x`, {
          method: 'POST',
          body: body(chunks),
          duplex: 'half',
          headers: { origin: APP, 'content-type': 'text/csv' },
        } as RequestInit),
        ctx(),
      )
    const refused = await post(10)
    expect([refused.status, (await errorOf(refused)).message]).toEqual([409, 'refused at the first chunk'])
    expect(read).toBe(10)
    read = 0
    const over = await post(1_000)
    expect([over.status, (await errorOf(over)).code]).toEqual([413, 'payload_too_large'])
    // reading stopped past the cap (16 chunks of 64 KiB, the 17th over it, a chunk pulled ahead), the rest cancelled
    expect(read).toBeLessThanOrEqual(18)
  })

  it('422 for bytes that are not UTF-8', async () => {
    const res = await route()(
      new Request(`${APP}/api/x`, {
        method: 'POST',
        body: new Uint8Array([0x61, 0xff, 0x62]),
        headers: { origin: APP, 'content-type': 'text/csv' },
      }),
      ctx(),
    )
    expect(res.status).toBe(422)
  })
})

describe('route() wrapper: rateLimit (the public reserves routes)', () => {
  it("429 rate_limited with Retry-After past a client's burst, before the session and the handler; other clients go on", async () => {
    const handler = vi.fn(() => ({ ok: true }))
    let now = 0
    const limiter = createRateLimiter({ burst: 2, perSecond: 0.5, now: () => now })
    const route = wrapper(null)({ roles: 'public', rateLimit: limiter, handler })
    const from = (ip: string) => request('GET', { headers: { 'x-forwarded-for': `198.51.100.1, ${ip}` } })
    expect((await route(from('203.0.113.1'), ctx())).status).toBe(200)
    expect((await route(from('203.0.113.1'), ctx())).status).toBe(200)
    const refused = await route(from('203.0.113.1'), ctx())
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('2')
    expect(await errorOf(refused)).toEqual({ code: 'rate_limited', message: 'Too many requests; try again later.' })
    expect(handler).toHaveBeenCalledTimes(2)
    expect((await route(from('203.0.113.2'), ctx())).status).toBe(200)
    now += 2_000
    expect((await route(from('203.0.113.1'), ctx())).status).toBe(200)
    // a signed-in route with a limit: the limit comes first (no session read for a refused request)
    const getUser = vi.fn(async () => admin)
    const limited = createRouteWrapper({ getUser, ...NO_CLAIMS, getAppUrl: () => APP, log: () => {} })({
      roles: ['admin'],
      rateLimit: createRateLimiter({ burst: 1, perSecond: 1, now: () => 0 }),
      handler: () => ({}),
    })
    expect((await limited(request('GET'), ctx())).status).toBe(200)
    expect((await limited(request('GET'), ctx())).status).toBe(429)
    expect(getUser).toHaveBeenCalledTimes(1)
  })
})
