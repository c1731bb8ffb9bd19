import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintOrders } from '@/db/schema/mint'
import { ValidationError } from '@/lib/web/errors'
import { stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import type { ApiMintOrderSummary, MintStatus } from './apiTypes'
import { createMintOrder } from './createMintOrder'
import { listMintOrders } from './listMintOrders'
import { encodeMintOrderCursor } from './mintOrderCursor'

let t: TestDatabase
let u: TestUsers
const staffOrders: string[] = []
const otherOrders: string[] = []

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
  await stockBars(t.db, {
    bars: [
      ...Array.from({ length: 7 }, (_, i) => ({ serial: `L-${i}` })),
      ...Array.from({ length: 3 }, (_, i) => ({ serial: `M-${i}` })),
    ],
  })
  for (let i = 0; i < 7; i++) {
    const a = await createMintOrder(t.db, {
      session: intakeSession(u.staff),
      request: buildMintRequest({ bars: [{ serial: `L-${i}` }] }),
      maxAttempts: 5,
    })
    staffOrders.push(a.orderId)
  }
  for (let i = 0; i < 3; i++) {
    const a = await createMintOrder(t.db, {
      session: intakeSession(u.otherStaff),
      request: buildMintRequest({ bars: [{ serial: `M-${i}` }] }),
      maxAttempts: 5,
    })
    otherOrders.push(a.orderId)
  }
  // several orders in the very same microsecond: the id breaks the tie
  await t.db
    .update(mintOrders)
    .set({ createdAt: sql`timestamptz '2026-01-01 00:00:00.123456+00'` })
    .where(inArray(mintOrders.id, [staffOrders[1] ?? '', staffOrders[2] ?? '', staffOrders[3] ?? '']))
  await t.db
    .update(mintOrders)
    .set({ status: 'confirmed' })
    .where(inArray(mintOrders.id, [staffOrders[0] ?? '', staffOrders[4] ?? '']))
})

afterAll(async () => {
  await t.drop()
})

async function all(p: {
  user: TestUsers[keyof TestUsers]
  status?: MintStatus
  limit?: number
}): Promise<ApiMintOrderSummary[]> {
  const items: ApiMintOrderSummary[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 100; pages++) {
    const page = await listMintOrders(t.db, { ...p, cursor })
    items.push(...page.items)
    if (page.nextCursor === null) return items
    cursor = page.nextCursor
  }
  throw new Error('pagination did not end')
}

describe('listMintOrders', () => {
  it('staff see their own orders, newest first, as summaries', async () => {
    const page = await listMintOrders(t.db, { user: u.staff })
    expect(page.items).toHaveLength(7)
    expect(page.nextCursor).toBeNull()
    expect(new Set(page.items.map((i) => i.orderId))).toEqual(new Set(staffOrders))
    const created = page.items.map((i) => i.createdAt)
    expect([...created].sort().reverse()).toEqual(created)
    expect(page.items[0]).toEqual({
      orderId: expect.any(String),
      status: expect.any(String),
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      amount: '401.084',
      vault: 'LDN-1',
      requestedBy: u.staff.email,
      createdAt: expect.any(String),
      txHash: null,
    })
  })

  it('approvers, admins and auditors see every order', async () => {
    const items = await all({ user: u.admin })
    expect(new Set(items.map((i) => i.orderId))).toEqual(new Set([...staffOrders, ...otherOrders]))
    for (const role of ['approver', 'auditor'] as const) {
      const reader = { ...(await insertUser(t.db, role)), role }
      expect(new Set((await all({ user: reader })).map((i) => i.orderId))).toEqual(
        new Set([...staffOrders, ...otherOrders]),
      )
    }
  })

  it.each([1, 2, 3, 4])('pages of %i never skip or repeat an order, even within one microsecond', async (limit) => {
    const paged = await all({ user: u.staff, limit })
    const whole = await listMintOrders(t.db, { user: u.staff, limit: 100 })
    expect(paged.map((i) => i.orderId)).toEqual(whole.items.map((i) => i.orderId))
  })

  it('filters by status', async () => {
    const confirmed = await all({ user: u.staff, status: 'confirmed', limit: 1 })
    expect(new Set(confirmed.map((i) => i.orderId))).toEqual(new Set([staffOrders[0], staffOrders[4]]))
    expect((await listMintOrders(t.db, { user: u.staff, status: 'failed' })).items).toEqual([])
    const awaiting = await all({ user: u.admin, status: 'awaiting_approval' })
    expect(awaiting).toHaveLength(8)
  })

  it('a cursor shows no more than the user may see', async () => {
    const [first] = await t.db
      .select({ id: mintOrders.id })
      .from(mintOrders)
      .where(eq(mintOrders.id, otherOrders[0] ?? ''))
    expect(first).toBeDefined()
    const cursor = encodeMintOrderCursor({ createdAtMicros: 9_999_999_999_999_999n, id: otherOrders[0] ?? '' })
    const page = await listMintOrders(t.db, { user: u.staff, cursor, limit: 100 })
    expect(page.items.every((i) => i.requestedBy === u.staff.email)).toBe(true)
  })

  it.each([
    [{ cursor: 'garbage!' }, 'cursor'],
    [{ cursor: 'Zm9v' }, 'cursor'], // base64url of "foo"
    [{ cursor: Buffer.from('123.not-a-uuid').toString('base64url') }, 'cursor'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 1.5 }, 'limit'],
    [{ status: 'done' as MintStatus }, 'status'],
  ])('an invalid parameter is a 422: %j', async (params, path) => {
    const error = await listMintOrders(t.db, { user: u.staff, ...params }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ code: 'validation_failed', issues: [{ path }] })
  })
})
