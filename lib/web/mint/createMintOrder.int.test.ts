import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, jobEvents } from '@/db/schema/jobs'
import { mintOrderBars, mintOrders } from '@/db/schema/mint'
import { vaultBars } from '@/db/schema/vault'
import { BarAlreadyUsedError, IdempotencyConflictError, ValidationError } from '@/lib/web/errors'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { failAtCommit } from '@/tests/helpers/failAtCommit'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { type CreateMintOrderParameters, createMintOrder } from './createMintOrder'

let t: TestDatabase
let u: TestUsers

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT]) // the mints below go to it (the allowlist)
})

afterAll(async () => {
  await t.drop()
})

let serial = 0
/** a serial no other test uses */
function freshSerial(prefix = 'S'): string {
  serial += 1
  return `${prefix}${serial.toString().padStart(6, '0')}`
}

/**
 * The intake, its bars first put on the vault's bar list (they come from the custodian's
 * list, never from the request: create_mint_order). `stock: false` when the test did
 * it already (concurrent requests: stocking one by one would serialize them). No approval
 * threshold unless the test gives one: these tests are about the intake's outbox.
 */
async function create(
  p: Omit<CreateMintOrderParameters, 'session' | 'maxAttempts' | 'approvalThresholdWei'> & {
    session?: CreateMintOrderParameters['session']
    stock?: boolean
    approvalThresholdWei?: bigint | null
  },
) {
  const { stock = true, ...rest } = p
  if (stock) await stockBarsOf(t.db, p.request)
  return createMintOrder(t.db, { session: intakeSession(u.staff), maxAttempts: 5, ...rest })
}

async function count(
  table: 'mint_orders' | 'held_bars' | 'mint_order_bars' | 'job_records' | 'job_events' | 'jobs' | 'sqs_outbox',
): Promise<number> {
  // held_bars: bars an order holds (the bar list made them; the intake only reserves them)
  const from =
    table === 'jobs'
      ? sql.raw('graphile_worker.jobs')
      : table === 'held_bars'
        ? sql.raw('public.vault_bars where order_id is not null')
        : sql.raw(`public.${table}`)
  const rows = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from ${from}`)
  return rows[0]?.n ?? 0
}

async function snapshot() {
  return {
    orders: await count('mint_orders'),
    bars: await count('held_bars'),
    links: await count('mint_order_bars'),
    jobs: await count('jobs'),
    records: await count('job_records'),
    events: await count('job_events'),
  }
}

describe('createMintOrder', () => {
  it('commits the order, its bars and their links together; its mint_send job comes with the approvals', async () => {
    const request = buildMintRequest({ bars: [{ serial: freshSerial() }, { serial: freshSerial() }] })
    const accepted = await create({ request })

    expect(accepted).toEqual({
      orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'awaiting_approval',
      statusUrl: `/api/gold/mint/${accepted.orderId}`,
    })

    const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, accepted.orderId))
    expect(order).toMatchObject({
      status: 'awaiting_approval',
      toAddress: request.to,
      amountWei: '802168000000000000000',
      vault: 'LDN-1',
      requestedBy: u.staff.id,
      jobId: null,
      acceptedResponse: accepted,
    })

    const links = await t.db
      .select({
        position: mintOrderBars.position,
        serial: vaultBars.serial,
        fineOz: vaultBars.fineOz,
        fineness: vaultBars.fineness,
      })
      .from(mintOrderBars)
      .innerJoin(vaultBars, eq(vaultBars.id, mintOrderBars.barId))
      .where(eq(mintOrderBars.orderId, accepted.orderId))
      .orderBy(mintOrderBars.position)
    expect(links).toEqual([
      { position: 0, serial: request.vaultProof.bars[0]?.serial, fineOz: '401.084', fineness: '999.90' },
      { position: 1, serial: request.vaultProof.bars[1]?.serial, fineOz: '401.084', fineness: '999.90' },
    ])

    const jobs = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where key = ${`mint_send:${accepted.orderId}`}`,
    )
    expect(jobs[0]?.n).toBe(0)
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, accepted.orderId))
    expect(events.map((e) => e.event)).toEqual(['approval_requested'])
  })

  it('a failure after the order insert (the second bar is taken) leaves no order, no job, no reserved bar', async () => {
    const taken = freshSerial()
    await create({ request: buildMintRequest({ bars: [{ serial: taken }] }) })
    const before = await snapshot()

    const first = freshSerial()
    const request = buildMintRequest({ bars: [{ serial: first }, { serial: taken }] })
    const error = await create({ request }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BarAlreadyUsedError)
    expect(error).toMatchObject({
      code: 'bar_already_used',
      bars: [{ serial: taken, refiner: 'Valcambi SA', index: 1 }],
      issues: [{ path: 'vaultProof.bars.1', message: `bar ${taken} (Valcambi SA) is already used` }],
    })

    expect(await snapshot()).toEqual(before)
    const firstBar = await t.db
      .select({ status: vaultBars.status, orderId: vaultBars.orderId })
      .from(vaultBars)
      .where(eq(vaultBars.serial, first))
    // the first bar was not reserved either: it is free for a later order
    expect(firstBar).toEqual([{ status: 'available', orderId: null }])
    await expect(create({ request: buildMintRequest({ bars: [{ serial: first }] }) })).resolves.toMatchObject({
      status: 'awaiting_approval',
    })
  })

  it.each(['postgres', 'sqs'] as const)(
    'a failure at the commit (%s transport) leaves nothing behind',
    async (transport) => {
      const key = `will-roll-back-${transport}`
      // raised at the commit of the intake's own autocommit statement, after all of it ran
      const armed = await failAtCommit(t.sql, {
        table: 'mint_orders',
        when: `NEW.idempotency_key = '${key}'`,
        message: 'injected failure',
        probe: `jsonb_build_object('orderId', NEW.id,
          'jobs', (select count(*) from graphile_worker.jobs where key = 'mint_send:' || NEW.id),
          'outbox', (select count(*) from sqs_outbox where order_id = NEW.id),
          'records', (select count(*) from job_records where order_id = NEW.id and job_id = NEW.job_id),
          'events', (select count(*) from job_events where order_id = NEW.id and event = 'enqueued'),
          'links', (select count(*) from mint_order_bars where order_id = NEW.id),
          'bars', (select count(*) from vault_bars where order_id = NEW.id and status = 'reserved'))::text`,
      })
      try {
        const before = { ...(await snapshot()), outbox: await count('sqs_outbox') }
        const error = await create({
          request: buildMintRequest({ bars: [{ serial: freshSerial() }, { serial: freshSerial() }] }),
          idempotencyKey: key,
          transport,
        }).catch((e: unknown) => e)
        expect(error).toMatchObject({ message: 'injected failure' })
        // inside the transaction, at its very end, everything was there...
        const inside = JSON.parse(String((error as { detail?: unknown }).detail)) as Record<string, unknown>
        // (no mint_send yet, by either transport: it comes with the approvals)
        expect(inside).toEqual({
          orderId: expect.any(String),
          jobs: 0,
          outbox: 0,
          records: 0,
          events: 0,
          links: 2,
          bars: 2,
        })
        // ...and after the rollback nothing is
        expect({ ...(await snapshot()), outbox: await count('sqs_outbox') }).toEqual(before)
        const orders = await t.db
          .select()
          .from(mintOrders)
          .where(eq(mintOrders.id, String(inside.orderId)))
        expect(orders).toEqual([])
      } finally {
        await armed.remove()
      }
    },
  )

  it('refuses the same bar in another letter case (it is the same physical bar)', async () => {
    const s = freshSerial('CASE')
    await create({ request: buildMintRequest({ bars: [{ serial: s, refiner: 'PAMP SA' }] }) })
    await expect(
      create({ request: buildMintRequest({ bars: [{ serial: s.toLowerCase(), refiner: 'pamp sa' }] }) }),
    ).rejects.toBeInstanceOf(BarAlreadyUsedError)
  })

  it('names every bar that is already used', async () => {
    const a = freshSerial()
    const b = freshSerial()
    await create({ request: buildMintRequest({ bars: [{ serial: a }, { serial: b }] }) })
    const error = await create({
      request: buildMintRequest({ bars: [{ serial: b }, { serial: freshSerial() }, { serial: a }] }),
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      bars: [
        { serial: b, index: 0 },
        { serial: a, index: 2 },
      ],
    })
  })

  it('validates the request itself: a bad request writes nothing', async () => {
    const before = await snapshot()
    const request = buildMintRequest({ bars: [{ serial: freshSerial() }] })
    request.amount = '1.000'
    const error = await create({ request }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'amount' }] })
    expect(await snapshot()).toEqual(before)
  })

  it('50 concurrent requests for distinct bars create 50 orders and 50 jobs', async () => {
    const before = await snapshot()
    const requests = Array.from({ length: 50 }, () =>
      buildMintRequest({ bars: [{ serial: freshSerial('D') }, { serial: freshSerial('D') }] }),
    )
    await stockBarsOf(t.db, requests)
    const results = await Promise.all(requests.map((request) => create({ request, stock: false })))
    expect(new Set(results.map((r) => r.orderId)).size).toBe(50)
    const after = await snapshot()
    expect(after.orders - before.orders).toBe(50)
    expect(after.links - before.links).toBe(100)
  })

  it('50 concurrent requests for the same bar: exactly one order, 49 BarAlreadyUsedError', async () => {
    const before = await snapshot()
    const contested = freshSerial('SAME')
    // each request also brings a bar of its own, so the losers' other bars must roll back too
    const requests = Array.from({ length: 50 }, () =>
      buildMintRequest({ bars: [{ serial: freshSerial('OWN') }, { serial: contested }] }),
    )
    await stockBarsOf(t.db, requests)
    const outcomes = await Promise.allSettled(
      requests.map((request, i) =>
        create({ request, stock: false, session: intakeSession(i % 2 ? u.staff : u.otherStaff) }),
      ),
    )
    const won = outcomes.filter((o) => o.status === 'fulfilled')
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(49)
    for (const l of lost) expect(l.reason).toBeInstanceOf(BarAlreadyUsedError)
    const after = await snapshot()
    expect(after.orders - before.orders).toBe(1)
    expect(after.bars - before.bars).toBe(2)
  })

  it('50 concurrent requests sharing bars in opposite orders do not deadlock', async () => {
    const x = freshSerial('X')
    const y = freshSerial('Y')
    await stockBarsOf(t.db, buildMintRequest({ bars: [{ serial: x }, { serial: y }] }))
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        create({
          request: buildMintRequest({ bars: i % 2 ? [{ serial: x }, { serial: y }] : [{ serial: y }, { serial: x }] }),
          stock: false,
        }),
      ),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(BarAlreadyUsedError)
  })
})

describe('createMintOrder: every order awaits approver signatures', () => {
  // buildMintRequest's two default bars: 802.168 fine oz
  const twoBars = () => buildMintRequest({ bars: [{ serial: freshSerial('AP') }, { serial: freshSerial('AP') }] })

  it('awaiting_approval, NO job, an approval_requested event and an audit row; 202 without jobId', async () => {
    const before = await snapshot()
    const request = twoBars()
    const accepted = await create({ request })
    expect(accepted).toEqual({
      orderId: expect.any(String),
      status: 'awaiting_approval',
      statusUrl: `/api/gold/mint/${accepted.orderId}`,
    })

    const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, accepted.orderId))
    expect(order).toMatchObject({
      status: 'awaiting_approval',
      jobId: null,
      approvedBy: null,
      acceptedResponse: accepted,
    })
    const after = await snapshot()
    // at most one new job: the notification's (mint.awaiting_approval, through
    // on_mint_awaiting_approval in the same statement; one dispatch job for many events), never a mint_send
    expect(after).toEqual({
      ...before,
      orders: before.orders + 1,
      bars: before.bars + 2,
      links: before.links + 2,
      events: before.events + 1,
      jobs: after.jobs,
    })
    expect(after.jobs - before.jobs).toBeLessThanOrEqual(1)
    const jobs = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where key = ${`mint_send:${accepted.orderId}`}`,
    )
    expect(jobs[0]?.n).toBe(0)
    const notified = await t.db.execute<{ type: string; task: string }>(sql`
      select e.type, j.task_identifier as task from notification_events e, graphile_worker.jobs j
       where e.order_id = ${accepted.orderId} and j.task_identifier = 'notify_dispatch'`)
    expect(notified).toEqual([{ type: 'mint.awaiting_approval', task: 'notify_dispatch' }])

    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, accepted.orderId))
    expect(events).toEqual([
      expect.objectContaining({ event: 'approval_requested', task: 'mint_send', jobId: null, actor: u.staff.email }),
    ])
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'order'), eq(auditLog.targetId, accepted.orderId)))
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'mint.approval_requested',
        actorId: u.staff.id,
        actorEmail: u.staff.email,
        detail: { to: request.to, amount: '802.168', vault: 'LDN-1' },
      }),
    ])
  })

  it('every order, whatever its amount: awaiting_approval, with its intent deadline 7 days after the intake', async () => {
    for (const request of [twoBars(), buildMintRequest({ bars: [{ serial: freshSerial('AP') }] })]) {
      const accepted = await create({ request })
      expect(accepted).toMatchObject({ status: 'awaiting_approval' })
      expect(accepted).not.toHaveProperty('jobId')
      const [order] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, accepted.orderId))
      const days = ((order?.intentDeadline.getTime() ?? 0) - (order?.createdAt.getTime() ?? 0)) / 86_400_000
      expect(days).toBeGreaterThan(6.99)
      expect(days).toBeLessThan(7.01)
    }
  })

  it('a replay of an order awaiting approval returns its first answer (no jobId) and creates nothing', async () => {
    const request = twoBars()
    const first = await create({ request, idempotencyKey: 'await-replay' })
    const before = await snapshot()
    expect(await create({ request: structuredClone(request), idempotencyKey: 'await-replay' })).toEqual(first)
    expect(await snapshot()).toEqual(before)
  })

  it('a failure at the commit leaves no order awaiting approval, no event, no audit row', async () => {
    const before = await snapshot()
    const audits = async () => (await t.db.select().from(auditLog)).length
    const auditsBefore = await audits()
    const armed = await failAtCommit(t.sql, {
      table: 'audit_log',
      when: "NEW.action = 'mint.approval_requested'",
      message: 'injected failure',
      probe: `jsonb_build_object('notifications', (select count(*) from notification_events where order_id = NEW.target_id::uuid))::text`,
    })
    try {
      const error = await create({ request: twoBars() }).catch((e: unknown) => e)
      expect(error).toMatchObject({ message: 'injected failure' })
      expect(JSON.parse(String((error as { detail?: unknown }).detail))).toEqual({ notifications: 1 })
      expect(await snapshot()).toEqual(before)
      expect(await audits()).toBe(auditsBefore)
    } finally {
      await armed.remove()
    }
  })
})

describe('createMintOrder: the token contract as recipient', () => {
  it('is refused with 422 on "to" and writes nothing', async () => {
    const tokenAddress = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    const before = await snapshot()
    const request = buildMintRequest({ to: tokenAddress, bars: [{ serial: freshSerial() }] })
    const err = await create({ request, tokenAddress: tokenAddress.toLowerCase() }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ValidationError)
    expect((err as ValidationError).issues).toEqual([
      { path: 'to', message: expect.stringContaining('token contract') },
    ])
    expect(await snapshot()).toEqual(before)
  })
})

describe('createMintOrder: Idempotency-Key', () => {
  it('a replay with the same key and body returns the first answer and creates nothing', async () => {
    const request = buildMintRequest({ bars: [{ serial: freshSerial() }] })
    const first = await create({ request, idempotencyKey: 'replay-1' })
    const before = await snapshot()
    const again = await create({ request: structuredClone(request), idempotencyKey: 'replay-1' })
    expect(again).toEqual(first)
    expect(await snapshot()).toEqual(before)
  })

  it('the same body spelled differently (address case, spaces) is still the same body', async () => {
    const request = buildMintRequest({ bars: [{ serial: freshSerial() }] })
    const first = await create({ request, idempotencyKey: 'replay-2' })
    const respelled = structuredClone(request)
    respelled.to = respelled.to.toLowerCase()
    respelled.vaultProof.vault = ` ${respelled.vaultProof.vault} `
    expect(await create({ request: respelled, idempotencyKey: 'replay-2' })).toEqual(first)
  })

  it('the same key with a different body is a conflict and creates nothing', async () => {
    await create({ request: buildMintRequest({ bars: [{ serial: freshSerial() }] }), idempotencyKey: 'conflict-1' })
    const before = await snapshot()
    await expect(
      create({ request: buildMintRequest({ bars: [{ serial: freshSerial() }] }), idempotencyKey: 'conflict-1' }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError)
    expect(await snapshot()).toEqual(before)
  })

  it('keys are per user: another user may use the same key', async () => {
    const a = await create({
      request: buildMintRequest({ bars: [{ serial: freshSerial() }] }),
      idempotencyKey: 'shared-key',
    })
    const b = await create({
      request: buildMintRequest({ bars: [{ serial: freshSerial() }] }),
      idempotencyKey: 'shared-key',
      session: intakeSession(u.otherStaff),
    })
    expect(b.orderId).not.toBe(a.orderId)
  })

  it('a key whose first request failed can be used again', async () => {
    const taken = freshSerial()
    await create({ request: buildMintRequest({ bars: [{ serial: taken }] }) })
    await expect(
      create({ request: buildMintRequest({ bars: [{ serial: taken }] }), idempotencyKey: 'retry-after-409' }),
    ).rejects.toBeInstanceOf(BarAlreadyUsedError)
    await expect(
      create({ request: buildMintRequest({ bars: [{ serial: freshSerial() }] }), idempotencyKey: 'retry-after-409' }),
    ).resolves.toMatchObject({ status: 'awaiting_approval' })
  })

  it('20 concurrent requests with the same key and body: one order, every caller gets its answer', async () => {
    const before = await snapshot()
    const request = buildMintRequest({ bars: [{ serial: freshSerial() }] })
    await stockBarsOf(t.db, request)
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create({ request, idempotencyKey: 'concurrent-same', stock: false })),
    )
    expect(new Set(results.map((r) => r.orderId)).size).toBe(1)
    expect((await snapshot()).orders - before.orders).toBe(1)
  })

  it('20 concurrent requests with the same key and different bodies: one order, the others conflict, never a 500', async () => {
    const before = await snapshot()
    const requests = Array.from({ length: 20 }, () => buildMintRequest({ bars: [{ serial: freshSerial() }] }))
    await stockBarsOf(t.db, requests)
    const outcomes = await Promise.allSettled(
      requests.map((request) => create({ request, idempotencyKey: 'concurrent-different', stock: false })),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(IdempotencyConflictError)
    expect((await snapshot()).orders - before.orders).toBe(1)
  })
})
