import { describe, expect, expectTypeOf, it, vi } from 'vitest'
import { z } from 'zod'
import type { ClaimedSessionUser } from '@/lib/web/auth/ClaimedSessionUser'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { SessionClaims } from '@/lib/web/auth/sessionClaimsFrom'
import { createRouteWrapper } from './createRouteWrapper'

// The wrapper's `sessionRow: 'in_handler'` branch (POST /api/gold/mint): the row is not read
// on the way in, yet every refusal before the handler keeps the documented order (a
// session that no longer stands answers 401/403 first).

const APP = 'http://localhost:3000'
const MAX_AGE = 12 * 60 * 60
const nowSeconds = () => Math.floor(Date.now() / 1000)
const claims = (over: Partial<SessionClaims> = {}): SessionClaims => ({
  id: 'u-staff',
  email: 'staff@mintdesk.local',
  role: 'staff',
  sessionVersion: 3,
  authTime: nowSeconds() - 60,
  sessionId: '5b0e8c1a-2f4d-4e6b-8a9c-0d1e2f3a4b5c',
  ...over,
})
const staffRow: SessionUser = { id: 'u-staff', email: 'staff@mintdesk.local', role: 'staff' }

/** The wrapper over fakes: the cookie's claims, and the row check's answer (null: the session no longer stands). */
function wrapper(p: { claims: SessionClaims | null; row: SessionUser | null }) {
  const getUser = vi.fn(async () => p.row)
  const getClaims = vi.fn(async () => p.claims)
  const route = createRouteWrapper({
    getUser,
    getClaims,
    getSessionMaxAgeSeconds: () => MAX_AGE,
    getAppUrl: () => APP,
    log: () => {},
  })
  return { route, getUser, getClaims }
}

const body = z.object({ amount: z.string().regex(/^\d+\.\d{3}$/) })

function post(p: { body?: string; origin?: string; type?: string } = {}): Request {
  return new Request(`${APP}/api/gold/mint`, {
    method: 'POST',
    body: p.body ?? JSON.stringify({ amount: '1.000' }),
    headers: { origin: p.origin ?? APP, 'content-type': p.type ?? 'application/json' },
  })
}

async function answer(res: Response) {
  return { status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code }
}

describe("route() wrapper: sessionRow 'in_handler'", () => {
  const handled = () => vi.fn(({ user }: { user: ClaimedSessionUser }) => ({ user }))

  it('hands the handler the claimed user without reading the row', async () => {
    const { route, getUser } = wrapper({ claims: claims(), row: staffRow })
    const handler = handled()
    const res = await route({ roles: ['staff', 'admin'], sessionRow: 'in_handler', body, handler })(post())
    expect(res.status).toBe(200)
    expect(getUser).not.toHaveBeenCalled()
    expect(handler).toHaveBeenCalledOnce()
    expect(handler.mock.calls[0]?.[0].user).toEqual({
      id: 'u-staff',
      email: 'staff@mintdesk.local',
      claimedRole: 'staff',
      sessionVersion: 3,
      sessionId: '5b0e8c1a-2f4d-4e6b-8a9c-0d1e2f3a4b5c',
      allowedRoles: ['staff', 'admin'],
    })
  })

  it('without claims, or past the absolute lifetime: the row check answers 401, the handler never runs', async () => {
    for (const c of [null, claims({ authTime: nowSeconds() - MAX_AGE })]) {
      const { route, getUser } = wrapper({ claims: c, row: null })
      const handler = handled()
      expect(await answer(await route({ roles: ['staff'], sessionRow: 'in_handler', body, handler })(post()))).toEqual({
        status: 401,
        code: 'unauthenticated',
      })
      expect(getUser).toHaveBeenCalledOnce()
      expect(handler).not.toHaveBeenCalled()
    }
  })

  it('a claimed role the route does not take: the row decides, 403 for its role, and lets in a role the row has', async () => {
    const approverRow: SessionUser = { ...staffRow, role: 'approver' }
    const refused = wrapper({ claims: claims({ role: 'approver' }), row: approverRow })
    expect(
      await answer(
        await refused.route({ roles: ['staff'], sessionRow: 'in_handler', body, handler: handled() })(post()),
      ),
    ).toEqual({ status: 403, code: 'forbidden' })
    expect(refused.getUser).toHaveBeenCalledOnce()

    // the row says staff although the claims say approver (set without a version bump): the row's role decides
    const allowed = wrapper({ claims: claims({ role: 'approver' }), row: staffRow })
    const handler = handled()
    expect((await allowed.route({ roles: ['staff'], sessionRow: 'in_handler', body, handler })(post())).status).toBe(
      200,
    )
    expect(handler.mock.calls[0]?.[0].user.claimedRole).toBe('approver')
  })

  describe('a refusal before the handler first makes the full row check', () => {
    const refusals = [
      {
        name: 'a foreign Origin (403)',
        req: () => post({ origin: 'https://evil.test' }),
        status: 403,
        code: 'forbidden',
      },
      {
        name: 'another media type (415)',
        req: () => post({ type: 'text/plain' }),
        status: 415,
        code: 'unsupported_media_type',
      },
      { name: 'malformed JSON (400)', req: () => post({ body: '{"amount":' }), status: 400, code: 'malformed_json' },
      {
        name: 'an invalid body (422)',
        req: () => post({ body: JSON.stringify({ amount: '1.5' }) }),
        status: 422,
        code: 'validation_failed',
      },
    ]
    for (const r of refusals) {
      it(`${r.name}: 401 when the session no longer stands, 403 for a role the row lost, else the refusal itself`, async () => {
        const revoked = wrapper({ claims: claims(), row: null })
        expect(
          await answer(
            await revoked.route({ roles: ['staff'], sessionRow: 'in_handler', body, handler: handled() })(r.req()),
          ),
        ).toEqual({ status: 401, code: 'unauthenticated' })
        expect(revoked.getUser).toHaveBeenCalledOnce()

        const demoted = wrapper({ claims: claims(), row: { ...staffRow, role: 'approver' } })
        expect(
          await answer(
            await demoted.route({ roles: ['staff'], sessionRow: 'in_handler', body, handler: handled() })(r.req()),
          ),
        ).toEqual({ status: 403, code: 'forbidden' })

        const standing = wrapper({ claims: claims(), row: staffRow })
        const handler = handled()
        expect(
          await answer(await standing.route({ roles: ['staff'], sessionRow: 'in_handler', body, handler })(r.req())),
        ).toEqual({ status: r.status, code: r.code })
        expect(standing.getUser).toHaveBeenCalledOnce()
        expect(handler).not.toHaveBeenCalled()
      })
    }

    it('params (404) and query (422) too', async () => {
      const revoked = wrapper({ claims: claims(), row: null })
      const byParams = revoked.route({
        roles: ['staff'],
        sessionRow: 'in_handler',
        params: z.object({ id: z.uuid() }),
        handler: handled(),
      })
      expect((await byParams(post(), { params: Promise.resolve({ id: 'nope' }) })).status).toBe(401)
      const byQuery = revoked.route({
        roles: ['staff'],
        sessionRow: 'in_handler',
        query: z.object({ n: z.coerce.number() }),
        handler: handled(),
      })
      expect((await byQuery(new Request(`${APP}/api/x?n=x`, { method: 'GET' }))).status).toBe(401)
    })
  })

  it('the row is checked once at most: a refusal after the claims fell back to it does not read it again', async () => {
    const { route, getUser } = wrapper({ claims: claims({ role: 'approver' }), row: staffRow })
    expect(
      (
        await route({ roles: ['staff'], sessionRow: 'in_handler', body, handler: handled() })(
          post({ type: 'text/plain' }),
        )
      ).status,
    ).toBe(415)
    expect(getUser).toHaveBeenCalledOnce()
  })

  it('types: the handler gets a ClaimedSessionUser, which is not a SessionUser', () => {
    const { route } = wrapper({ claims: claims(), row: staffRow })
    route({
      roles: ['staff'],
      sessionRow: 'in_handler',
      handler: ({ user }) => {
        expectTypeOf(user).toEqualTypeOf<ClaimedSessionUser>()
        expectTypeOf(user).not.toExtend<SessionUser>()
      },
    })
    route({
      roles: ['staff'],
      handler: ({ user }) => {
        expectTypeOf(user).toEqualTypeOf<SessionUser>()
      },
    })
  })
})
