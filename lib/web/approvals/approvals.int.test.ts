import { and, eq, sql } from 'drizzle-orm'
import type { HDAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '@/db/client'
import { auditLog, jobEvents } from '@/db/schema/jobs'
import { mintOrders } from '@/db/schema/mint'
import { OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import {
  ConflictError,
  NotAwaitingApprovalError,
  NotFoundError,
  SelfApprovalError,
  ValidationError,
} from '@/lib/web/errors'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey, signOrderIntent } from '@/tests/helpers/approvals'
import { importTestBarList, stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { failAtCommit } from '@/tests/helpers/failAtCommit'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { approveMintOrder } from './approveMintOrder'
import { listOrdersAwaitingApproval } from './listOrdersAwaitingApproval'
import { createMinterReader, type MinterReader } from './MinterReader'
import { rejectMintOrder } from './rejectMintOrder'

// Four eyes (docs/architecture.md invariant 6) on a real Postgres, as the web's own
// database role: nobody decides on their own request, whatever their role; one decision
// per order, also when two arrive at once; an approval re-checks the bars and the
// controls as they are now, and its job exists iff it committed (the outbox); a
// rejection frees the bars.

let t: TestDatabase
/** the web's connection (mintdesk_web): approvals run on its grants, as the route does */
let web: { db: Db; close: () => Promise<void> }
let u: TestUsers
let approver: SessionUser
let secondApprover: SessionUser
let serial = 0
let chain: ChainFixture
let minter: MinterReader
/** each user's signing key: 10 and 11 are approvers on chain; 13 (secondApprover's) is bound but no approver */
const keys = new Map<string, HDAccount>()

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
  secondApprover = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  await allowRecipients(t.db, [TEST_RECIPIENT])
  for (const [user, key] of [
    [approver, devKey('approver')],
    [u.admin, devKey('approver2')],
    [secondApprover, devKey('admin')],
    [u.staff, devKey('custodian')],
  ] as const) {
    keys.set(user.id, key)
    await bindDevKey(t.db, { userId: user.id, key })
  }
  const { createDb } = await import('@/db/client')
  web = createDb({ url: t.roleUrl('web'), max: 8 })
})

afterAll(async () => {
  await web?.close()
  await t?.drop()
  await chain?.stop()
})

/** An order awaiting approval (threshold 0), requested by `by`, its bars on the list first. */
async function awaiting(by: SessionUser = u.staff, p: { bars?: number; to?: string } = {}) {
  const request = buildMintRequest({
    to: p.to,
    bars: Array.from({ length: p.bars ?? 1 }, () => ({ serial: `APR-${++serial}` })),
  })
  await stockBarsOf(t.db, request)
  const accepted = await createMintOrder(web.db, {
    session: intakeSession(by),
    request,
    maxAttempts: 5,
  })
  expect(accepted.status).toBe('awaiting_approval')
  return { orderId: accepted.orderId, request }
}

/** the order's notification events, oldest first: type, the status it announces and its reason code */
const notificationsOf = async (orderId: string) =>
  t.db.execute<{ type: string; status: string; reason: string | null }>(sql`
    select type, payload->>'status' as status, payload->>'reason' as reason from notification_events
    where order_id = ${orderId}::uuid order by created_at, id`)
const orderRow = async (orderId: string) => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, orderId)))[0]
const jobsOf = async (orderId: string) =>
  t.db.execute<{ id: string; max_attempts: number; task_identifier: string }>(
    sql`select id::text, max_attempts, task_identifier from graphile_worker.jobs where key = ${`mint_send:${orderId}`}`,
  )
const eventsOf = async (orderId: string) =>
  (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, orderId)).orderBy(jobEvents.at, jobEvents.id)).map(
    (e) => e.event,
  )
const auditOf = async (orderId: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'order'), eq(auditLog.targetId, orderId)))
      .orderBy(auditLog.id)
  ).map((a) => a.action)
const barsOf = async (orderId: string) =>
  t.db.execute<{ serial: string; status: string; order_id: string | null }>(sql`
    select b.serial, b.status::text as status, b.order_id::text as order_id
      from mint_order_bars m join vault_bars b on b.id = m.bar_id where m.order_id = ${orderId}::uuid order by m.position`)

/** `user` signs the order's intent with their bound key (or `key`) and approves with it */
const approve = async (orderId: string, user: SessionUser, key = keys.get(user.id) ?? devKey('approver')) =>
  approveMintOrder(web.db, {
    orderId,
    user,
    signature: await signOrderIntent(t.db, { orderId, key, domain: minter.domain }),
    minter,
    maxAttempts: 6,
  })
const reject = (orderId: string, user: SessionUser, reason = 'the receipt does not match the bars') =>
  rejectMintOrder(web.db, { orderId, user, reason })

describe('approveMintOrder', () => {
  it('pending + approved_by/at, its mint_send job (MAX_ATTEMPTS) in the same transaction, the approved and enqueued events, an audit row; answers the order with the decision', async () => {
    const { orderId } = await awaiting()
    const order = await approve(orderId, approver)
    expect(order).toMatchObject({
      orderId,
      status: 'pending',
      requestedBy: u.staff.email,
      decision: { outcome: 'approved', by: approver.email, at: expect.any(String), reason: null },
    })
    expect(order.timeline.map((e) => e.event)).toEqual(['approval_requested', 'signed', 'approved', 'enqueued'])

    const row = await orderRow(orderId)
    expect(row).toMatchObject({ status: 'pending', approvedBy: approver.id, rejectedBy: null })
    expect(row?.approvedAt).toBeInstanceOf(Date)
    const jobs = await jobsOf(orderId)
    expect(jobs).toEqual([{ id: expect.any(String), max_attempts: 6, task_identifier: 'mint_send' }])
    expect(row?.jobId?.toString()).toBe(jobs[0]?.id)
    expect(await auditOf(orderId)).toEqual(['mint.approval_requested', 'mint.sign', 'mint.approve'])
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, orderId), eq(auditLog.action, 'mint.approve')))
    expect(audit).toMatchObject({
      actorId: approver.id,
      actorEmail: approver.email,
      detail: { jobId: jobs[0]?.id, to: TEST_RECIPIENT, amount: '401.084' },
    })
  })

  it('an admin approves the request of a staff member too', async () => {
    const { orderId } = await awaiting()
    expect(await approve(orderId, u.admin)).toMatchObject({
      status: 'pending',
      decision: { outcome: 'approved', by: u.admin.email },
    })
  })

  it('self-approval is refused for every role that may approve (approver, admin): 403 self_approval, nothing changes', async () => {
    // an admin requests through the API; an approver's own request can only be a row written around it
    for (const requester of [u.admin, approver]) {
      const { orderId } = await awaiting(requester)
      const error = await approve(orderId, requester).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SelfApprovalError)
      expect(error).toMatchObject({ code: 'self_approval' })
      await expect(reject(orderId, requester)).rejects.toBeInstanceOf(SelfApprovalError)
      expect(await orderRow(orderId)).toMatchObject({ status: 'awaiting_approval', approvedBy: null, rejectedBy: null })
      expect(await jobsOf(orderId)).toEqual([])
      expect(await auditOf(orderId)).toEqual(['mint.approval_requested'])
      // another person may
      expect((await approve(orderId, requester.id === u.admin.id ? approver : u.admin)).status).toBe('pending')
    }
  })

  it('the database refuses a self-approval written around the code (CHECK mint_orders_not_self_approved)', async () => {
    const { orderId } = await awaiting()
    const error: unknown = await web.db
      .execute(sql`update mint_orders set approved_by = requested_by where id = ${orderId}::uuid`)
      .catch((e: unknown) => e)
    // drizzle wraps the driver's error: the Postgres one is its cause
    const pgError = error instanceof Error && error.cause ? error.cause : error
    expect(pgError).toMatchObject({ code: '23514', constraint_name: 'mint_orders_not_self_approved' })
  })

  it('409 not_awaiting_approval for an approved order and a rejected one; 404 for an unknown or malformed id', async () => {
    const approved = await awaiting()
    await approve(approved.orderId, approver)
    await expect(approve(approved.orderId, u.admin)).rejects.toBeInstanceOf(NotAwaitingApprovalError)
    await expect(reject(approved.orderId, u.admin)).rejects.toBeInstanceOf(NotAwaitingApprovalError)
    expect(await jobsOf(approved.orderId)).toHaveLength(1)

    const rejected = await awaiting()
    await reject(rejected.orderId, approver)
    await expect(approve(rejected.orderId, u.admin)).rejects.toBeInstanceOf(NotAwaitingApprovalError)

    for (const orderId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])
      await expect(
        approveMintOrder(web.db, {
          orderId,
          user: approver,
          signature: `0x${'11'.repeat(65)}`,
          minter,
          maxAttempts: 5,
        }),
      ).rejects.toBeInstanceOf(NotFoundError)
  })

  it('two approvers at once (one signature needed): exactly one approval, one job; the other gets 409 not_awaiting_approval', async () => {
    for (let round = 0; round < 5; round++) {
      const { orderId } = await awaiting()
      const outcomes = await Promise.allSettled([approve(orderId, approver), approve(orderId, u.admin)])
      const won = outcomes.filter((o) => o.status === 'fulfilled')
      expect(won).toHaveLength(1)
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(NotAwaitingApprovalError)
      expect(await jobsOf(orderId)).toHaveLength(1)
      expect((await eventsOf(orderId)).filter((e) => e === 'approved' || e === 'enqueued')).toEqual([
        'approved',
        'enqueued',
      ])
      expect((await auditOf(orderId)).filter((a) => a === 'mint.approve')).toHaveLength(1)
    }
  })

  it('approve and reject at once: one outcome, consistent (pending with a job and reserved bars, or rejected with none and freed bars)', async () => {
    for (let round = 0; round < 6; round++) {
      const { orderId } = await awaiting(u.staff, { bars: 2 })
      // started in either order
      const calls = [() => approve(orderId, approver), () => reject(orderId, secondApprover)]
      const outcomes = await Promise.allSettled((round % 2 ? calls : calls.reverse()).map((call) => call()))
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(NotAwaitingApprovalError)
      const row = await orderRow(orderId)
      const jobs = await jobsOf(orderId)
      const bars = await barsOf(orderId)
      if (row?.status === 'pending') {
        expect(row).toMatchObject({ approvedBy: approver.id, rejectedBy: null, rejectionReason: null })
        expect(jobs).toHaveLength(1)
        expect(bars.every((b) => b.status === 'reserved' && b.order_id === orderId)).toBe(true)
      } else {
        expect(row).toMatchObject({ status: 'rejected', approvedBy: null, rejectedBy: secondApprover.id })
        expect(jobs).toEqual([])
        expect(bars.every((b) => b.status === 'available' && b.order_id === null)).toBe(true)
      }
    }
  })

  it('re-checks the controls as they are now: a recipient removed after intake is refused (422 recipient_not_allowed), nothing changes', async () => {
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    await allowRecipients(t.db, [other])
    const { orderId } = await awaiting(u.staff, { to: other })
    await t.db.execute(sql`delete from allowed_recipients where address = ${other.toLowerCase()}`)
    const error = await approve(orderId, approver).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecipientNotAllowedError)
    expect(error).toMatchObject({ code: 'recipient_not_allowed' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'awaiting_approval', approvedBy: null })
    expect(await jobsOf(orderId)).toEqual([])
    // it can still be rejected, freeing its bars
    expect((await reject(orderId, approver, 'recipient no longer allowed')).status).toBe('rejected')
  })

  it('re-checks the limits: over the per-order limit or the rolling 24 h cap set after intake is refused (422 over_limit); the order itself counts once', async () => {
    const { orderId } = await awaiting(u.staff, { bars: 2 }) // 802.168 oz
    try {
      await setTestMintLimits(t.db, { maxOrderWei: 800n * 10n ** 18n, dailyCapWei: null })
      await expect(approve(orderId, approver)).rejects.toMatchObject({ code: 'over_limit', limit: 'max_order' })

      // the cap counts every order of the last 24 h (this test file's many): just below them all with this one
      const [row] = await t.db.execute<{ used: string }>(sql`
        select coalesce(sum(amount_wei), 0)::text as used from mint_orders
         where created_at > now() - interval '24 hours' and status in ('confirmed', 'pending', 'submitted', 'awaiting_approval')`)
      const used = BigInt(row?.used ?? '0') // includes this order's 802.168 oz
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: used - 1n })
      const error = await approve(orderId, approver).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OverLimitError)
      expect(error).toMatchObject({ code: 'over_limit', limit: 'daily_cap' })
      expect(await jobsOf(orderId)).toEqual([])
      expect(await orderRow(orderId)).toMatchObject({ status: 'awaiting_approval' })

      // exactly at the cap (the order counted once, not twice): approved
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: used })
      expect((await approve(orderId, approver)).status).toBe('pending')
    } finally {
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
    }
  })

  it('re-checks the bars: a bar dropped by a newer bar list (missing) makes the order unapprovable (409 conflict), still rejectable', async () => {
    const vault = 'APR-VAULT'
    const request = buildMintRequest({ vault, bars: [{ serial: 'KEEP-1' }, { serial: 'DROP-1' }] })
    await importTestBarList(t.db, {
      vault,
      asOf: new Date(Date.now() - 60_000),
      bars: [{ serial: 'KEEP-1' }, { serial: 'DROP-1' }],
    })
    const accepted = await createMintOrder(web.db, {
      session: intakeSession(u.staff),
      request,
      maxAttempts: 5,
    })
    await importTestBarList(t.db, { vault, bars: [{ serial: 'KEEP-1' }] })
    const error = await approve(accepted.orderId, approver).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConflictError)
    expect((error as ConflictError).message).toContain('DROP-1 (Valcambi SA): missing')
    expect(await jobsOf(accepted.orderId)).toEqual([])
    expect((await reject(accepted.orderId, approver, 'a bar left the vault')).status).toBe('rejected')
    expect((await barsOf(accepted.orderId)).map((b) => [b.serial, b.status])).toEqual([
      ['KEEP-1', 'available'],
      ['DROP-1', 'withdrawn'],
    ])
  })

  it('the outbox: a failure just before the commit leaves no job, no event, no audit row, and the order awaiting approval', async () => {
    const { orderId } = await awaiting()
    // raised at the commit of the approval's transaction, after all of it ran (a test-only trigger of this database)
    const armed = await failAtCommit(t.sql, {
      table: 'audit_log',
      when: `NEW.action = 'mint.approve' and NEW.target_id = '${orderId}'`,
      message: 'injected failure',
      probe: `jsonb_build_object(
        'jobs', (select count(*) from graphile_worker.jobs where id = (NEW.detail->>'jobId')::bigint),
        'status', (select status::text from mint_orders where id = NEW.target_id::uuid))::text`,
    })
    const error = await approve(orderId, approver)
      .catch((e: unknown) => e)
      .finally(() => armed.remove())
    expect(error).toMatchObject({ message: 'injected failure' })
    // inside the transaction the job is there...
    expect(JSON.parse(String((error as { detail?: unknown }).detail))).toEqual({ jobs: 1, status: 'pending' })
    // ...and after the rollback it is not
    expect(await jobsOf(orderId)).toEqual([])
    const jobRecords = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from job_records where order_id = ${orderId}::uuid`,
    )
    expect(jobRecords[0]?.n).toBe(0)
    expect(await eventsOf(orderId)).toEqual(['approval_requested'])
    expect(await auditOf(orderId)).toEqual(['mint.approval_requested'])
    expect(await orderRow(orderId)).toMatchObject({
      status: 'awaiting_approval',
      approvedBy: null,
      approvedAt: null,
      jobId: null,
    })
    // and the approval can be made again, for real
    await approve(orderId, approver)
    expect(await jobsOf(orderId)).toHaveLength(1)
  })
})

describe('rejectMintOrder', () => {
  it('rejected with who, when and why; the bars are available again (a new order takes them); a rejected event and an audit row; no job ever', async () => {
    const { orderId, request } = await awaiting(u.staff, { bars: 2 })
    const order = await reject(orderId, approver, '  the receipt is for another vault  ')
    expect(order).toMatchObject({
      status: 'rejected',
      decision: {
        outcome: 'rejected',
        by: approver.email,
        at: expect.any(String),
        reason: 'the receipt is for another vault',
      },
    })
    expect(order.timeline.map((e) => e.event)).toEqual(['approval_requested', 'rejected'])
    expect(order.timeline[1]?.detail).toContain('the receipt is for another vault')
    expect(await orderRow(orderId)).toMatchObject({
      status: 'rejected',
      rejectedBy: approver.id,
      rejectionReason: 'the receipt is for another vault',
      approvedBy: null,
    })
    expect(await jobsOf(orderId)).toEqual([])
    expect(await auditOf(orderId)).toEqual(['mint.approval_requested', 'mint.reject'])
    // the page says it first; the requester is emailed through the order's mint.failed event (status rejected)
    expect(order.outcome).toMatchObject({
      status: 'rejected',
      reason: 'rejected',
      by: approver.email,
      note: 'the receipt is for another vault',
    })
    expect(await notificationsOf(orderId)).toEqual([
      { type: 'mint.awaiting_approval', status: 'awaiting_approval', reason: null },
      { type: 'mint.failed', status: 'rejected', reason: 'rejected' },
    ])
    expect((await barsOf(orderId)).map((b) => [b.status, b.order_id])).toEqual([
      ['available', null],
      ['available', null],
    ])
    // the order keeps its bars in its history (the order page shows them)...
    expect(order.vaultProof.bars.map((b) => b.serial)).toEqual(request.vaultProof.bars.map((b) => b.serial))
    // ...and a new request gets them
    const again = await createMintOrder(web.db, {
      session: intakeSession(u.otherStaff),
      request,
      maxAttempts: 5,
    })
    expect(again.status).toBe('awaiting_approval')
  })

  it('a reason of 1 to 500 characters (after trimming): else 422 validation_failed on "reason", nothing changes', async () => {
    const { orderId } = await awaiting()
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const error = await reject(orderId, approver, reason).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect(error).toMatchObject({ code: 'validation_failed', issues: [{ path: 'reason' }] })
    }
    expect(await orderRow(orderId)).toMatchObject({ status: 'awaiting_approval' })
    expect((await reject(orderId, approver, 'x'.repeat(500))).decision?.reason).toHaveLength(500)
  })

  it('two rejections at once: one wins, the other gets 409', async () => {
    const { orderId } = await awaiting()
    const outcomes = await Promise.allSettled([
      reject(orderId, approver, 'first'),
      reject(orderId, secondApprover, 'second'),
    ])
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    expect((await auditOf(orderId)).filter((a) => a === 'mint.reject')).toHaveLength(1)
    expect((await notificationsOf(orderId)).filter((e) => e.type === 'mint.failed')).toHaveLength(1)
  })
})

describe('listOrdersAwaitingApproval (the approvals page)', () => {
  it('every order awaiting approval, oldest first, with its bars, requester and whether the viewer requested it; decided ones leave', async () => {
    const first = await awaiting(u.staff, { bars: 2 })
    const second = await awaiting(u.admin)
    const queue = await listOrdersAwaitingApproval(web.db, { user: u.admin })
    const ids = queue.items.map((i) => i.orderId)
    expect(ids.indexOf(first.orderId)).toBeLessThan(ids.indexOf(second.orderId))
    expect(queue.items.every((i) => i.bars.length > 0)).toBe(true)
    expect(queue.items.find((i) => i.orderId === first.orderId)).toEqual({
      orderId: first.orderId,
      amount: '802.168',
      to: TEST_RECIPIENT,
      vault: 'LDN-1',
      receiptRef: first.request.vaultProof.receiptRef,
      documentSha256: first.request.vaultProof.documentSha256,
      requestedBy: u.staff.email,
      createdAt: expect.any(String),
      mine: false,
      bars: first.request.vaultProof.bars.map((b) =>
        expect.objectContaining({ serial: b.serial, refiner: b.refiner, fineOz: '401.084' }),
      ),
    })
    expect(queue.items.find((i) => i.orderId === second.orderId)?.mine).toBe(true)
    expect(
      (await listOrdersAwaitingApproval(web.db, { user: approver })).items.find((i) => i.orderId === second.orderId)
        ?.mine,
    ).toBe(false)

    await approve(first.orderId, approver)
    await reject(second.orderId, approver)
    const after = (await listOrdersAwaitingApproval(web.db, { user: u.admin })).items.map((i) => i.orderId)
    expect(after).not.toContain(first.orderId)
    expect(after).not.toContain(second.orderId)
    expect(await listOrdersAwaitingApproval(web.db, { user: u.admin, limit: 1 })).toMatchObject({
      items: [expect.anything()],
      more: after.length - 1,
    })
  })
})

describe('approveMintOrder: the signature', () => {
  const refused = (call: Promise<unknown>) =>
    call.then(
      () => 'approved',
      (e: unknown) => e,
    )

  it("422 invalid_signature: a key not bound to the user, a key bound but not an approver on chain, a forged or another order's signature; nothing changes", async () => {
    const { orderId } = await awaiting()
    const other = await awaiting()
    const sign = (key: HDAccount, id = orderId) => signOrderIntent(t.db, { orderId: id, key, domain: minter.domain })
    const call = (signature: `0x${string}`, user = approver) =>
      refused(approveMintOrder(web.db, { orderId, user, signature, minter, maxAttempts: 5 }))
    // approver 11's key is bound to the admin, not to this approver
    expect(await call(await sign(devKey('approver2')))).toMatchObject({ code: 'invalid_signature' })
    // secondApprover's key (13) is bound to them, but is no approver on chain
    expect(await call(await sign(devKey('admin')), secondApprover)).toMatchObject({
      code: 'invalid_signature',
      message: expect.stringContaining('not an approver on chain'),
    })
    expect(await call(`0x${'11'.repeat(65)}`)).toMatchObject({ code: 'invalid_signature' })
    expect(await call(await sign(devKey('approver'), other.orderId))).toMatchObject({ code: 'invalid_signature' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'awaiting_approval' })
    expect(await jobsOf(orderId)).toEqual([])
  })

  it('422 invalid_signature for an expired intent, even signed by an approver', async () => {
    const { orderId } = await awaiting()
    await t.db.execute(
      sql`update mint_orders set intent_deadline = now() - interval '1 second' where id = ${orderId}::uuid`,
    )
    expect(await refused(approve(orderId, approver))).toMatchObject({
      code: 'invalid_signature',
      message: expect.stringContaining('expired'),
    })
  })

  it('M of N at 10,000 oz: one signature leaves it awaiting, the same approver again is 409 already_signed, a second approver makes it pending', async () => {
    // 26 bars of 399.960 fine oz: 10,398.960 oz, at or above the dev rule's line of 10,000 oz: 2 approvers
    const big = buildMintRequest({
      bars: Array.from({ length: 26 }, () => ({ serial: `APR-${++serial}`, grossOz: '400.000', fineness: '999.9' })),
    })
    await stockBarsOf(t.db, big)
    const accepted = await createMintOrder(web.db, { session: intakeSession(u.staff), request: big, maxAttempts: 5 })
    const { orderId } = accepted
    expect(
      await minter.requiredApprovals(
        (await orderRow(orderId))?.amountWei ? BigInt((await orderRow(orderId))?.amountWei ?? 0) : 0n,
      ),
    ).toBe(2)
    expect((await approve(orderId, approver)).status).toBe('awaiting_approval')
    expect(await jobsOf(orderId)).toEqual([])
    expect(await refused(approve(orderId, approver))).toMatchObject({ code: 'already_signed' })
    expect((await approve(orderId, u.admin)).status).toBe('pending')
    expect(await jobsOf(orderId)).toHaveLength(1)
  })
})
