import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type JobEventName, recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { emitQueueMetrics, QUEUE_METRICS, QUEUE_METRICS_MESSAGE } from './emitQueueMetrics'
import { readQueueMetrics } from './readQueueMetrics'
import { startQueueMetrics } from './startQueueMetrics'

describe('queue metrics (the figures behind the production alarms)', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase({ max: 2 })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('is all zero on an empty queue', async () => {
    expect(await readQueueMetrics(t.db)).toEqual({
      deadLetters: 0,
      queued: 0,
      oldestQueuedAgeSeconds: 0,
      feeCappedOrders: 0,
      unreconciledEvents: 0,
      jobAttemptsTotal: 0,
      jobFailuresTotal: 0,
      kmsThrottlesTotal: 0,
      reorgsTotal: 0,
    })
  })

  it('counts dead letters and the age of the oldest queued job, as the admin dashboard does', async () => {
    const add = async (key: string, runAt: string) =>
      t.db.execute<{ id: string }>(
        sql`select id::text as id from graphile_worker.add_job('metrics_probe', '{}'::json, job_key => ${key}::text, run_at => ${runAt}::timestamptz, max_attempts => 3)`,
      )
    const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString()
    await add('ready-old', ago(120))
    await add('ready-new', ago(5))
    await add('scheduled', new Date(Date.now() + 3_600_000).toISOString())
    const [dead] = await add('dead', ago(600))
    const [locked] = await add('last-attempt-running', ago(900))
    const [retrying] = await add('retrying', ago(1200))
    await t.db.execute(
      sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'boom' where id = ${dead?.id}::bigint`,
    )
    // a job on its last attempt is running, not dead: no false alarm while it runs
    await t.db.execute(
      sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w1', attempts = max_attempts where id = ${locked?.id}::bigint`,
    )
    await t.db.execute(
      sql`update graphile_worker._private_jobs set attempts = 1, last_error = 'rpc down' where id = ${retrying?.id}::bigint`,
    )

    const m = await readQueueMetrics(t.db)
    expect(m.deadLetters).toBe(1)
    expect(m.queued).toBe(2)
    expect(m.oldestQueuedAgeSeconds).toBeGreaterThanOrEqual(119)
    expect(m.oldestQueuedAgeSeconds).toBeLessThan(200)
  })

  it('counts the open orders whose newest fee event is fee_capped (issue 13)', async () => {
    const user = await insertUser(t.db)
    const order = async (status: 'pending' | 'submitted' | 'failed', events: JobEventName[]) => {
      const { id } = await insertOrder(t.db, { requestedBy: user.id, status })
      for (const event of events) await recordJobEvent(t.db, { event, task: 'mint_send', orderId: id })
      return id
    }
    await order('pending', ['enqueued', 'fee_capped', 'started', 'succeeded', 'enqueued'])
    await order('submitted', ['signed', 'broadcast', 'fee_capped', 'enqueued'])
    await order('pending', ['fee_capped', 'signed'])
    await order('submitted', ['fee_capped', 'replaced'])
    await order('submitted', ['fee_capped', 'mined'])
    await order('failed', ['fee_capped'])
    await order('pending', ['enqueued'])
    expect((await readQueueMetrics(t.db)).feeCappedOrders).toBe(2)
  })

  it('reports the cumulative counters the rate alarms take DIFF() of (issue 17)', async () => {
    const before = await readQueueMetrics(t.db)
    for (const event of ['succeeded', 'failed', 'failed', 'reorged'] as const)
      await recordJobEvent(t.db, { event, task: 'mint_send' })
    await recordJobEvent(t.db, { event: 'succeeded', task: 'faults' })
    await t.db.execute(
      sql`insert into job_events (task, event, data) values ('faults', 'kms_throttled', '{"count": 7}'::jsonb), ('faults', 'rpc_retry', '{"count": 3}'::jsonb)`,
    )
    const after = await readQueueMetrics(t.db)
    expect(after.jobAttemptsTotal - before.jobAttemptsTotal).toBe(3)
    expect(after.jobFailuresTotal - before.jobFailuresTotal).toBe(2)
    expect(after.kmsThrottlesTotal - before.kmsThrottlesTotal).toBe(7)
    expect(after.reorgsTotal - before.reorgsTotal).toBe(1)
  })

  it('writes one JSON line with the fields the CloudWatch metric filters read', async () => {
    const lines: string[] = []
    await emitQueueMetrics(t.db, { log: (fields, msg) => lines.push(JSON.stringify({ msg, ...fields })) })
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(line.msg).toBe(QUEUE_METRICS_MESSAGE)
    expect(typeof line.deadLetters).toBe('number')
    expect(typeof line.oldestQueuedAgeSeconds).toBe('number')
    expect(typeof line.feeCappedOrders).toBe('number')
    for (const m of Object.values(QUEUE_METRICS)) expect(typeof line[m.field], m.field).toBe('number')
  })

  it('startQueueMetrics emits at once, then on its interval, and stops', async () => {
    let n = 0
    const loop = startQueueMetrics(t.db, { intervalMs: 50, log: () => void n++ })
    await new Promise((r) => setTimeout(r, 180))
    await loop.stop()
    const after = n
    expect(after).toBeGreaterThanOrEqual(2)
    await new Promise((r) => setTimeout(r, 120))
    expect(n).toBe(after)
  })
})
