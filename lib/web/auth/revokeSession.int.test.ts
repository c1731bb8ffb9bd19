import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { users } from '@/db/schema/users'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { revokeSession } from './revokeSession'

// Sign-out's write, as the web's own database role (it holds select, insert and delete on
// revoked_sessions, and nothing else).
let t: TestDatabase
let web: DbClient
let userId: string
const WEEK = 7 * 24 * 60 * 60
const nowSeconds = () => Math.floor(Date.now() / 1000)

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  const [row] = await t.db
    .insert(users)
    .values({ email: 'out@mintdesk.test', name: 'Out', role: 'approver' })
    .returning({ id: users.id })
  userId = row?.id ?? ''
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

const rowOf = async (sessionId: string) =>
  (
    await t.sql<{ user_id: string; expires_at: number }[]>`
      select user_id::text, extract(epoch from expires_at)::int as expires_at from revoked_sessions where session_id = ${sessionId}::uuid`
  )[0]

describe('revokeSession', () => {
  it('records the session, remembered until its sign-in plus the longest lifetime the config allows (7 days)', async () => {
    const sessionId = randomUUID()
    const authTime = nowSeconds() - 60
    expect(await revokeSession(web.db, { claims: { id: userId, sessionId, authTime } })).toEqual({ revoked: true })
    const row = await rowOf(sessionId)
    expect(row?.user_id).toBe(userId)
    expect(row?.expires_at).toBe(authTime + WEEK)
  })

  it('is idempotent: signing the same session out twice records it once', async () => {
    const sessionId = randomUUID()
    const claims = { id: userId, sessionId, authTime: nowSeconds() }
    expect(await revokeSession(web.db, { claims })).toEqual({ revoked: true })
    expect(await revokeSession(web.db, { claims })).toEqual({ revoked: false })
    const [n] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from revoked_sessions where session_id = ${sessionId}::uuid`
    expect(n?.n).toBe(1)
  })

  it('records nothing for a user that does not exist, or ids that are not uuids', async () => {
    const claims = { id: randomUUID(), sessionId: randomUUID(), authTime: nowSeconds() }
    expect(await revokeSession(web.db, { claims })).toEqual({ revoked: false })
    expect(await rowOf(claims.sessionId)).toBeUndefined()
    expect(await revokeSession(web.db, { claims: { ...claims, id: 'admin' } })).toEqual({ revoked: false })
    expect(await revokeSession(web.db, { claims: { ...claims, id: userId, sessionId: 'x' } })).toEqual({
      revoked: false,
    })
  })

  it('the table stays bounded: each sign-out prunes the sessions past the longest lifetime, and keeps the others', async () => {
    const expired = randomUUID()
    const kept = randomUUID()
    // signed out a while ago: one signed in more than a week ago (it can stand nowhere now), one just under
    await t.sql`insert into revoked_sessions (session_id, user_id, expires_at) values
      (${expired}::uuid, ${userId}::uuid, now() - interval '5 seconds'),
      (${kept}::uuid, ${userId}::uuid, now() + interval '1 hour')`
    await revokeSession(web.db, { claims: { id: userId, sessionId: randomUUID(), authTime: nowSeconds() } })
    expect(await rowOf(expired)).toBeUndefined()
    expect(await rowOf(kept)).toBeDefined()
  })
})
