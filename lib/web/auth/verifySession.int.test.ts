import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { users } from '@/db/schema/users'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { revokeSession } from './revokeSession'
import type { SessionClaims } from './sessionClaimsFrom'
import { verifySession } from './verifySession'

// The check every request makes (route wrapper and page guards), against the web's own
// database role as in production.
let t: TestDatabase
let web: DbClient
let id: string
const sessionId = '3c9d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'
const MAX_AGE = 12 * 60 * 60
const now = new Date('2026-11-30T12:00:00Z')
const nowSeconds = Math.floor(now.getTime() / 1000)

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  const [row] = await t.db
    .insert(users)
    .values({ email: 'ada@mintdesk.test', name: 'Ada', role: 'admin' })
    .returning({ id: users.id })
  id = row?.id ?? ''
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

const claims = (over: Partial<SessionClaims> = {}): SessionClaims => ({
  id,
  email: 'ada@mintdesk.test',
  role: 'admin',
  sessionVersion: 0,
  authTime: nowSeconds - 60,
  sessionId,
  ...over,
})
const verify = (c: SessionClaims | null) => verifySession(web.db, { claims: c, now, maxAgeSeconds: MAX_AGE })

describe('verifySession', () => {
  it('a current session stands, with the row’s email and role', async () => {
    expect(await verify(claims())).toEqual({ ok: true, user: { id, email: 'ada@mintdesk.test', role: 'admin' } })
  })

  it('authorizes with the database’s role, not the token’s', async () => {
    await t.db.update(users).set({ role: 'staff' }).where(eq(users.id, id))
    expect(await verify(claims({ role: 'admin' }))).toEqual({
      ok: true,
      user: { id, email: 'ada@mintdesk.test', role: 'staff' },
    })
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id))
  })

  it('refuses a session signed in longer ago than the absolute lifetime, however recent its token', async () => {
    expect(await verify(claims({ authTime: nowSeconds - MAX_AGE }))).toEqual({ ok: false, reason: 'expired' })
    expect((await verify(claims({ authTime: nowSeconds - MAX_AGE + 1 }))).ok).toBe(true)
  })

  it('refuses a session of an older version (a role change or a disable since), and of a disabled user', async () => {
    await t.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, id))
    expect(await verify(claims())).toEqual({ ok: false, reason: 'revoked' })
    expect((await verify(claims({ sessionVersion: 1 }))).ok).toBe(true)
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, id))
    expect(await verify(claims({ sessionVersion: 1 }))).toEqual({ ok: false, reason: 'disabled' })
    await t.db.update(users).set({ disabled: false }).where(eq(users.id, id))
  })

  it('refuses a signed-out session, and only that one: another session of the same user stands', async () => {
    // the version the row has by now (the test above bumped it)
    const current = claims({ sessionVersion: 1 })
    expect(await revokeSession(web.db, { claims: current })).toEqual({ revoked: true })
    expect(await verify(current)).toEqual({ ok: false, reason: 'signed_out' })
    expect(await verify({ ...current, sessionId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d' })).toEqual({
      ok: true,
      user: { id, email: 'ada@mintdesk.test', role: 'admin' },
    })
  })

  it('refuses no session, an unknown user and an id that is not a uuid', async () => {
    expect(await verify(null)).toEqual({ ok: false, reason: 'no_session' })
    expect(await verify(claims({ id: '00000000-0000-4000-8000-000000000000' }))).toEqual({
      ok: false,
      reason: 'unknown_user',
    })
    expect(await verify(claims({ id: 'admin' }))).toEqual({ ok: false, reason: 'unknown_user' })
  })
})
