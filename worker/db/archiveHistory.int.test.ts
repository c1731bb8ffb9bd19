import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { archiveHistory } from './archiveHistory'

const OLD = "now() - interval '14 months'"
const NEW = "now() - interval '2 months'"

/** The history retention as the worker runs it (its own database role): what is older moves, the rest stays. */
describe('archiveHistory', () => {
  let t: TestDatabase
  let worker: DbClient
  let orderId: string

  beforeAll(async () => {
    t = await createTestDatabase()
    worker = createDb({ url: t.roleUrl('worker'), max: 2, name: 'retention-test' })
    const user = await insertUser(t.db)
    orderId = (await insertOrder(t.db, { requestedBy: user.id })).id
    for (const [jobId, at] of [
      [1001, OLD],
      [1002, NEW],
    ] as const) {
      // a finished housekeeping job, old or new, with two events (ids past graphile-worker's own)
      await t.db.execute(
        sql.raw(`insert into job_records (job_id, task, state, attempts, max_attempts, created_at, updated_at, finished_at)
          values (${jobId}, 'nonce_health', 'done', 1, 5, ${at}, ${at}, ${at})`),
      )
      await t.db.execute(
        sql.raw(`insert into job_events (job_id, task, event, at) values (${jobId}, 'nonce_health', 'started', ${at}),
          (${jobId}, 'nonce_health', 'succeeded', ${at})`),
      )
    }
    // an old order's timeline (mint_send with its order) and an old unfinished housekeeping job: they stay
    await t.db.execute(
      sql.raw(`insert into job_records (job_id, task, order_id, state, attempts, max_attempts, created_at, updated_at)
        values (1003, 'mint_send', '${orderId}', 'done', 1, 5, ${OLD}, ${OLD}),
          (1004, 'nonce_health', null, 'retrying', 1, 5, ${OLD}, ${OLD})`),
    )
    await t.db.execute(
      sql.raw(`insert into job_events (job_id, order_id, task, event, at) values
        (1003, '${orderId}', 'mint_send', 'succeeded', ${OLD}), (null, '${orderId}', 'mint_send', 'approved', ${OLD}),
        (1004, null, 'nonce_health', 'failed', ${OLD})`),
    )
    await t.db.execute(
      sql.raw(`insert into audit_log (actor_email, action, target_type, target_id, at)
        values ('a@b.c', 'mint.requested', 'order', '${orderId}', ${OLD})`),
    )
    // webhook deliveries: an old delivered one with its attempt, an old pending one, a new delivered one
    await t.db.execute(
      sql.raw(`insert into webhook_endpoints (id, url, events, secret_ciphertext)
        values ('00000000-0000-4000-8000-000000000301', 'https://hooks.example/', array['mint.confirmed'], 'v1:x')`),
    )
    await t.db.execute(
      sql.raw(`insert into notification_events (id, type, order_id, payload, created_at, dispatched_at)
        select ('00000000-0000-4000-8000-00000000040' || g)::uuid, 'mint.confirmed', '${orderId}', '{}', ${OLD}, ${OLD}
        from generate_series(1, 3) g`),
    )
    await t.db.execute(
      sql.raw(`insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts, created_at, updated_at) values
        ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000401', '00000000-0000-4000-8000-000000000301', 'delivered', 1, ${OLD}, ${OLD}),
        ('00000000-0000-4000-8000-000000000502', '00000000-0000-4000-8000-000000000402', '00000000-0000-4000-8000-000000000301', 'pending', 1, ${OLD}, ${OLD}),
        ('00000000-0000-4000-8000-000000000503', '00000000-0000-4000-8000-000000000403', '00000000-0000-4000-8000-000000000301', 'delivered', 1, ${NEW}, ${NEW})`),
    )
    await t.db.execute(
      sql.raw(`insert into webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, ok)
        values ('00000000-0000-4000-8000-000000000501', 1, ${OLD}, 100, 200, true),
          ('00000000-0000-4000-8000-000000000503', 1, ${NEW}, 100, 200, true)`),
    )
  })
  afterAll(async () => {
    await worker?.close()
    await t?.drop()
  })

  const count = async (query: string) => {
    const [row] = await t.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${query}`))
    return row?.n
  }

  it('does nothing when retention is off', async () => {
    expect(await archiveHistory(worker.db, { months: 0 })).toEqual({
      jobEvents: 0,
      jobRecords: 0,
      webhookDeliveries: 0,
      webhookAttempts: 0,
    })
    expect(await count('job_events_archive')).toBe(0)
  })

  it('moves what is older, keeps the audit, the order timelines, live jobs and everything newer; then nothing', async () => {
    const moved = await archiveHistory(worker.db, { months: 12, batch: 1 })
    expect(moved).toEqual({ jobEvents: 2, jobRecords: 1, webhookDeliveries: 1, webhookAttempts: 1 })
    expect(await count('job_events_archive where job_id = 1001')).toBe(2)
    expect(await count('job_records_archive where job_id = 1001')).toBe(1)
    expect(await count("webhook_deliveries_archive where id = '00000000-0000-4000-8000-000000000501'")).toBe(1)
    expect(await count('webhook_delivery_attempts_archive')).toBe(1)
    // what stays
    expect(await count('job_events where job_id = 1001')).toBe(0)
    expect(await count('job_events where job_id = 1002')).toBe(2)
    expect(await count(`job_events where order_id = '${orderId}'`)).toBe(2)
    expect(await count('job_events where job_id = 1004')).toBe(1)
    expect(await count('job_records where job_id in (1002, 1003, 1004)')).toBe(3)
    expect(await count('audit_log')).toBe(1)
    expect(await count('webhook_deliveries')).toBe(2)
    expect(await count('webhook_delivery_attempts')).toBe(1)
    // a second pass moves nothing
    expect(await archiveHistory(worker.db, { months: 12 })).toEqual({
      jobEvents: 0,
      jobRecords: 0,
      webhookDeliveries: 0,
      webhookAttempts: 0,
    })
  })

  it('the worker still may not delete an order timeline itself', async () => {
    const error = await worker.db.execute(sql`delete from job_events`).catch((e: unknown) => e)
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('42501')
  })
})
