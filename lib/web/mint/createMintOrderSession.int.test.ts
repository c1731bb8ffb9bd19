import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { users } from '@/db/schema/users'
import type { JobSpec } from '@/lib/jobs/buildJobSpec'
import { ozToWei } from '@/lib/money/ozToWei'
import type { SessionToCheck } from '@/lib/web/auth/ClaimedSessionUser'
import { revokeSession } from '@/lib/web/auth/revokeSession'
import { ForbiddenError, UnauthenticatedError, ValidationError } from '@/lib/web/errors'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { createMintOrder } from './createMintOrder'
import { type CreateMintOrderIntake, createMintOrderArguments } from './createMintOrderArguments'
import { createMintOrderCall } from './createMintOrderCall'
import { MINT_REQUEST_ROLES } from './mintRequestRoles'
import { parseMintRequest } from './parseMintRequest'

// create_mint_order's first step: the session against the user's row, in the
// intake's own statement, before any lock or write; and createMintOrder's own check for a
// request it refuses before sending that statement. As the web's database role.

let t: TestDatabase
let web: DbClient
let serial = 0

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  await allowRecipients(t.db, [TEST_RECIPIENT])
  vi.spyOn(console, 'warn').mockImplementation(() => {}) // the refused sessions' log lines
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
})

async function user(
  over: { role?: 'staff' | 'approver' | 'admin'; disabled?: boolean; sessionVersion?: number } = {},
): Promise<SessionToCheck> {
  const email = `cms-${++serial}@mintdesk.test`
  const [row] = await t.db
    .insert(users)
    .values({
      email,
      name: email,
      role: over.role ?? 'staff',
      disabled: over.disabled ?? false,
      sessionVersion: over.sessionVersion ?? 0,
    })
    .returning({ id: users.id })
  if (!row) throw new Error('no user')
  return {
    id: row.id,
    email,
    sessionVersion: over.sessionVersion ?? 0,
    sessionId: randomUUID(),
    allowedRoles: MINT_REQUEST_ROLES,
  }
}

async function request() {
  const r = buildMintRequest({ bars: [{ serial: `CMS-${++serial}` }] })
  await stockBarsOf(t.db, r)
  return r
}

async function orders(): Promise<number> {
  const [row] = await t.db.execute<{ n: number }>(
    sql`select (select count(*) from mint_orders) + (select count(*) from job_events) + (select count(*) from graphile_worker._private_jobs) as n`,
  )
  return Number(row?.n)
}

const intake = async (session: SessionToCheck, p: { tokenAddress?: string } = {}) =>
  createMintOrder(web.db, {
    session,
    request: await request(),
    maxAttempts: 5,
    tokenAddress: p.tokenAddress,
  })

describe('createMintOrder: the session checked in the statement', () => {
  it('a standing session gets its order', async () => {
    const staff = await user()
    expect((await intake(staff)).status).toBe('awaiting_approval')
  })

  it('unknown, disabled, another version: UnauthenticatedError; a role not allowed: ForbiddenError; nothing written', async () => {
    const before = await orders()
    const unknown = { ...(await user()), id: '00000000-0000-4000-8000-000000000000' }
    await expect(intake(unknown)).rejects.toBeInstanceOf(UnauthenticatedError)
    await expect(intake(await user({ disabled: true }))).rejects.toBeInstanceOf(UnauthenticatedError)
    await expect(intake({ ...(await user({ sessionVersion: 2 })), sessionVersion: 1 })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    )
    await expect(intake(await user({ role: 'approver' }))).rejects.toBeInstanceOf(ForbiddenError)
    await expect(intake({ ...(await user()), allowedRoles: [] })).rejects.toBeInstanceOf(ForbiddenError)
    expect(await orders()).toBe(before)
  })

  it('a signed-out session (its id in revoked_sessions): UnauthenticatedError, by the statement and before it; nothing written', async () => {
    const before = await orders()
    const signedOut = await user()
    await revokeSession(web.db, { claims: { ...signedOut, authTime: Math.floor(Date.now() / 1000) } })
    await expect(intake(signedOut)).rejects.toBeInstanceOf(UnauthenticatedError)
    // refused in TypeScript before the statement (a mint to the token itself): still the 401 first
    await expect(intake(signedOut, { tokenAddress: TEST_RECIPIENT })).rejects.toBeInstanceOf(UnauthenticatedError)
    expect(await orders()).toBe(before)
    // the same user's other session stands
    await expect(intake({ ...signedOut, sessionId: randomUUID() })).resolves.toMatchObject({
      status: 'awaiting_approval',
    })
  })

  it('an id that is not a uuid: UnauthenticatedError, not a 500', async () => {
    await expect(intake({ ...(await user()), id: 'not-a-uuid' })).rejects.toBeInstanceOf(UnauthenticatedError)
    await expect(intake({ ...(await user()), sessionId: 'not-a-uuid' })).rejects.toBeInstanceOf(UnauthenticatedError)
  })

  it('refused in TypeScript before the statement: the session still answers first (401, 403), else the 422', async () => {
    const token = { tokenAddress: TEST_RECIPIENT } // a mint to the token itself is refused before the call
    await expect(intake(await user({ disabled: true }), token)).rejects.toBeInstanceOf(UnauthenticatedError)
    await expect(intake(await user({ role: 'approver' }), token)).rejects.toBeInstanceOf(ForbiddenError)
    await expect(intake(await user(), token)).rejects.toBeInstanceOf(ValidationError)
  })

  /** the intake's statement with its named arguments as given, on the web's pool */
  const call = async (session: SessionToCheck, change: (intake: CreateMintOrderIntake) => CreateMintOrderIntake) => {
    const r = parseMintRequest(await request())
    const intake = createMintOrderArguments({
      orderId: randomUUID(),
      session,
      request: r,
      requestHash: 'h',
      amountWei: ozToWei(r.amount),
      needsApproval: false,
      idempotencyKey: null,
      maxAttempts: 5,
      transport: 'postgres',
    })
    const { text, values } = createMintOrderCall(change(intake))
    return web.db.$client.unsafe(text, values)
  }

  it('no session id at all refuses as signed out rather than passes', async () => {
    await expect(
      call(await user(), (i) => ({ ...i, session_id: null }) as unknown as CreateMintOrderIntake),
    ).rejects.toMatchObject({ code: 'MDR01', message: 'unauthenticated', detail: '{"reason": "signed_out"}' })
  })

  it('a null among the allowed roles refuses rather than passes', async () => {
    await expect(call(await user(), (i) => ({ ...i, allowed_roles: [null] }))).rejects.toMatchObject({
      code: 'MDR01',
      message: 'forbidden',
    })
  })

  it('named arguments: a missing or unknown key is refused (22023) before anything is read or written', async () => {
    const before = await orders()
    const staff = await user()
    await expect(call(staff, ({ idempotency_key: _, ...rest }) => rest as CreateMintOrderIntake)).rejects.toMatchObject(
      { code: '22023', message: 'create_mint_order: missing keys {idempotency_key}' },
    )
    await expect(call(staff, (i) => ({ ...i, idempotencyKey: 'typo' }) as CreateMintOrderIntake)).rejects.toMatchObject(
      {
        code: '22023',
        message: 'create_mint_order: unknown keys {idempotencyKey}',
      },
    )
    await expect(call(staff, (i) => ({ ...i, job: { ...i.job, jobKey: 'typo' } as JobSpec }))).rejects.toMatchObject({
      code: '22023',
      message: 'enqueue_job: unknown keys {jobKey}',
    })
    expect(await orders()).toBe(before)
  })

  it('one function of that name, taking one jsonb; EXECUTE for mintdesk_web, not for the worker', async () => {
    const [fns] = await t.sql<{ n: number; args: string }[]>`
      select count(*)::int as n, max(pg_get_function_identity_arguments(p.oid)) as args
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = 'create_mint_order'`
    expect(fns).toEqual({ n: 1, args: 'p_intake jsonb' })
    const worker = postgres(t.roleUrl('worker'), { max: 1, onnotice: () => {} })
    try {
      await expect(worker.unsafe(`select * from create_mint_order('{}'::jsonb)`)).rejects.toMatchObject({
        code: '42501',
      })
    } finally {
      await worker.end({ timeout: 5 })
    }
  })
})
