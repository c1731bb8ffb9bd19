import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '@/db/client'
import { DATABASE_ROLES } from '@/db/roles/roleNames'
import { checkMintControls } from '@/lib/controls/checkMintControls'
import type { BaseError } from '@/lib/errors/BaseError'
import { type ErrorCode, statusForCode } from '@/lib/errors/http'
import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey, signOrderIntent } from '@/tests/helpers/approvals'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { approveMintOrder } from './approveMintOrder'
import { createMinterReader, type MinterReader } from './MinterReader'
import { rejectMintOrder } from './rejectMintOrder'

// The mint controls have one home, public.check_mint_controls (db/functions/check_mint_controls.sql): the
// intake (create_mint_order) and the approval (checkMintControls) refuse the same order with
// the same error, code, HTTP status, message and figures when the limits or the allowlist
// change between the intake and the approval. Each order is refused at approval, rejected
// (its bars freed), then the very same request is sent to the intake again.

/** a request as the tests build it (validated again by the intake) */
type MintRequest = ReturnType<typeof buildMintRequest>

const SECOND_RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

let t: TestDatabase
let web: { db: Db; close: () => Promise<void> }
let u: TestUsers
let approver: SessionUser
let serial = 0
let chain: ChainFixture
let minter: MinterReader

beforeAll(async () => {
  chain = await startChainFixture()
  minter = createMinterReader({
    client: chain.publicClient,
    chainId: chain.chainId,
    minterAddress: chain.minterAddress,
  })
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  await bindDevKey(t.db, { userId: approver.id, key: devKey('approver') })
  await allowRecipients(t.db, [TEST_RECIPIENT, SECOND_RECIPIENT])
  const { createDb } = await import('@/db/client')
  web = createDb({ url: t.roleUrl('web'), max: 4 })
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
  await chain?.stop()
})

beforeEach(async () => {
  await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
})

/** The intake of `request` as the route calls it, every order awaiting approval. */
const intake = (request: MintRequest) =>
  createMintOrder(web.db, { session: intakeSession(u.staff), request, maxAttempts: 5 })

/** An order of two 401.084 oz bars (802.168 oz) awaiting approval. */
async function awaiting(to = TEST_RECIPIENT) {
  const request = buildMintRequest({ to, bars: [{ serial: `SAME-${++serial}` }, { serial: `SAME-${++serial}` }] })
  await stockBarsOf(t.db, request)
  const accepted = await intake(request)
  expect(accepted.status).toBe('awaiting_approval')
  return { orderId: accepted.orderId, request }
}

/** What a client and the admin see of a refusal. */
function seen(error: unknown) {
  const e = error as BaseError & {
    limit?: unknown
    amountWei?: unknown
    limitWei?: unknown
    usedWei?: unknown
    to?: unknown
  }
  return {
    class: e.constructor.name,
    code: e.code,
    status: statusForCode(e.code as ErrorCode),
    message: e.message,
    issues: e.issues,
    limit: e.limit,
    amountWei: e.amountWei,
    limitWei: e.limitWei,
    usedWei: e.usedWei,
    to: e.to,
  }
}

/** The approval's refusal of the order, then (after its rejection freed the bars) the intake's of the same request. */
async function bothRefusals(orderId: string, request: MintRequest) {
  const signature = await signOrderIntent(t.db, { orderId, key: devKey('approver'), domain: minter.domain })
  const atApproval = await approveMintOrder(web.db, {
    orderId,
    user: approver,
    signature,
    minter,
    maxAttempts: 5,
  }).catch((e: unknown) => e)
  expect((await rejectMintOrder(web.db, { orderId, user: approver, reason: 'refused by the controls' })).status).toBe(
    'rejected',
  )
  const atIntake = await intake(request).catch((e: unknown) => e)
  return { approval: seen(atApproval), intake: seen(atIntake) }
}

describe('the same refusal at intake and at approval (one home: public.check_mint_controls)', () => {
  it('a per-order limit lowered after the intake: the same over_limit (max_order), status and message', async () => {
    const { orderId, request } = await awaiting()
    await setTestMintLimits(t.db, { maxOrderWei: 800n * 10n ** 18n, dailyCapWei: null })
    const { approval, intake: atIntake } = await bothRefusals(orderId, request)
    expect(approval).toMatchObject({ class: 'OverLimitError', code: 'over_limit', status: 422, limit: 'max_order' })
    expect(approval.message).toBe('The order of 802.168 oz is above the per-order limit of 800.000 oz.')
    expect(atIntake).toEqual(approval)
  })

  it('a daily cap set after the intake: the same over_limit (daily_cap), with the same rolling total in its message', async () => {
    const { orderId, request } = await awaiting()
    const [row] = await t.db.execute<{ used: string }>(sql`
      select coalesce(sum(amount_wei), 0)::text as used from mint_orders
       where created_at > now() - interval '24 hours' and status in ('confirmed', 'pending', 'submitted', 'awaiting_approval')`)
    const used = BigInt(row?.used ?? '0') // includes this order's 802.168 oz
    await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: used - 1n })
    const { approval, intake: atIntake } = await bothRefusals(orderId, request)
    expect(approval).toMatchObject({
      class: 'OverLimitError',
      code: 'over_limit',
      status: 422,
      limit: 'daily_cap',
      usedWei: used - 802_168n * 10n ** 15n,
    })
    expect(atIntake).toEqual(approval)
  })

  it('a recipient taken off the allowlist after the intake: the same recipient_not_allowed, status and message', async () => {
    const { orderId, request } = await awaiting(SECOND_RECIPIENT)
    await t.db.execute(sql`delete from allowed_recipients where address = ${SECOND_RECIPIENT.toLowerCase()}`)
    try {
      const { approval, intake: atIntake } = await bothRefusals(orderId, request)
      expect(approval).toMatchObject({ class: 'RecipientNotAllowedError', code: 'recipient_not_allowed', status: 422 })
      expect(atIntake).toEqual(approval)
    } finally {
      await allowRecipients(t.db, [SECOND_RECIPIENT])
    }
  })

  it("the worker's form (no cap lock) reads the same row: the same error as the approval's for the same figures", async () => {
    const { orderId, request } = await awaiting()
    await setTestMintLimits(t.db, { maxOrderWei: 800n * 10n ** 18n, dailyCapWei: null })
    const order = { to: request.to, amountWei: 802_168n * 10n ** 15n, excludeOrderId: orderId }
    const unlocked = await web.db
      .transaction((tx) => checkMintControls(tx, { ...order, lock: false }))
      .catch((e: unknown) => e)
    const locked = await web.db.transaction((tx) => checkMintControls(tx, order)).catch((e: unknown) => e)
    expect(seen(unlocked)).toEqual(seen(locked))
    expect(seen(locked)).toMatchObject({ code: 'over_limit', limit: 'max_order' })
  })

  it("EXECUTE for the web and the worker roles only, not PUBLIC; the worker's check runs on its own role", async () => {
    const [acl] = await t.db.execute<{ fn: string; web: boolean; worker: boolean; public: boolean }>(sql`
      select bool_and(has_function_privilege(${DATABASE_ROLES.web}, p.oid, 'execute')) as web,
             bool_and(has_function_privilege(${DATABASE_ROLES.worker}, p.oid, 'execute')) as worker,
             bool_or(coalesce(array_to_string(p.proacl, ',') ~ '(^|,)=X', true)) as public,
             string_agg(p.proname, ',' order by p.proname) as fn
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname in ('check_mint_controls', 'recent_mints_wei')`)
    expect(acl).toEqual({ fn: 'check_mint_controls,recent_mints_wei', web: true, worker: true, public: false })

    const { createDb } = await import('@/db/client')
    const worker = createDb({ url: t.roleUrl('worker'), max: 1 })
    try {
      const { orderId, request } = await awaiting()
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: 10n ** 30n })
      const passed = await worker.db.transaction((tx) =>
        checkMintControls(tx, {
          to: request.to,
          amountWei: 802_168n * 10n ** 15n,
          excludeOrderId: orderId,
          lock: false,
        }),
      )
      expect(passed.usedWei).toBeGreaterThan(0n)
    } finally {
      await worker.close()
    }
  })
})
