import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { createStatementLogDb, type StatementLogDb } from '@/tests/helpers/createStatementLogDb'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { addJob } from './addJob'
import { addJobs } from './addJobs'

type GraphileJob = {
  id: string
  task: string
  key: string | null
  queue: string | null
  priority: number
  flags: Record<string, boolean> | null
  run_at: Date
  max_attempts: number
  payload: Record<string, unknown>
}
type JobRecord = {
  job_id: string
  task: string
  order_id: string | null
  state: string
  max_attempts: number
  payload: Record<string, unknown>
}
type JobEvent = {
  job_id: string
  event: string
  task: string
  order_id: string | null
  actor: string | null
  detail: string | null
}

// addJobs runs as the web's own database role (mintdesk_web): add_job per row needs no
// grant beyond the EXECUTE the runtime roles already have
describe('addJobs', () => {
  let t: TestDatabase
  let web: DbClient
  let counted: StatementLogDb

  beforeAll(async () => {
    t = await createTestDatabase()
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'add-jobs-as-web' })
    counted = createStatementLogDb({ url: t.roleUrl('web'), name: 'add-jobs-counted' })
    await counted.db.execute(sql`select 1`)
  })
  afterAll(async () => {
    await counted?.close()
    await web?.close()
    await t.drop()
  })

  const graphileJobs = async (ids: readonly bigint[]) =>
    t.db.execute<GraphileJob>(sql`
      select j.id::text as id, k.identifier as task, j.key, q.queue_name as queue, j.priority, j.flags, j.run_at, j.max_attempts, j.payload
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks k on k.id = j.task_id
      left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
      where j.id = any(${`{${ids.join(',')}}`}::bigint[]) order by j.id`)
  const jobRecordsOf = async (ids: readonly bigint[]) =>
    t.db.execute<JobRecord>(sql`
      select job_id::text as job_id, task, order_id::text as order_id, state, max_attempts, payload
      from job_records where job_id = any(${`{${ids.join(',')}}`}::bigint[]) order by job_id`)
  const eventsOf = async (ids: readonly bigint[]) =>
    t.db.execute<JobEvent>(sql`
      select job_id::text as job_id, event, task, order_id::text as order_id, actor, detail
      from job_events where job_id = any(${`{${ids.join(',')}}`}::bigint[]) order by id`)
  const counts = async () =>
    (
      await t.db.execute<{ jobs: number; records: number; events: number }>(sql`
        select (select count(*)::int from graphile_worker._private_jobs) as jobs,
               (select count(*)::int from job_records) as records,
               (select count(*)::int from job_events) as events`)
    )[0]

  it('adds several jobs in one statement (public.enqueue_job per job): each its graphile job, its job_records row and one enqueued event, ids in input order', async () => {
    const staff = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: staff.id })
    const later = new Date(Date.now() + 3_600_000)
    const before = counted.statements().length
    const { jobIds } = await addJobs(counted.db, [
      {
        task: 'test_alpha',
        payload: { orderId: order.id, n: 1 },
        jobKey: 'test_alpha:1',
        queueName: 'test_lane:1',
        priority: 3,
        flags: ['notify', 'slow'],
        maxAttempts: 7,
        orderId: order.id,
        actor: 'tester',
        detail: 'the first',
      },
      { task: 'test_beta', payload: { n: 2 }, runAt: later },
      { task: 'test_alpha', payload: { n: 3 }, queueName: 'test_lane:2', priority: -1, actor: 'tester' },
    ])
    expect(counted.statements().length - before).toBe(1)
    expect(jobIds).toHaveLength(3)
    expect(new Set(jobIds).size).toBe(3)

    const jobs = new Map((await graphileJobs(jobIds)).map((j) => [j.id, j]))
    const [first, second, third] = jobIds.map((id) => jobs.get(id.toString()))
    expect(first).toMatchObject({
      task: 'test_alpha',
      key: 'test_alpha:1',
      queue: 'test_lane:1',
      priority: 3,
      flags: { notify: true, slow: true },
      max_attempts: 7,
      payload: { orderId: order.id, n: 1 },
    })
    expect(second).toMatchObject({
      task: 'test_beta',
      key: null,
      queue: null,
      priority: 0,
      flags: null,
      max_attempts: 5,
      payload: { n: 2 },
    })
    expect(new Date(second?.run_at ?? 0).getTime()).toBe(later.getTime())
    expect(third).toMatchObject({
      task: 'test_alpha',
      key: null,
      queue: 'test_lane:2',
      priority: -1,
      flags: null,
      max_attempts: 5,
      payload: { n: 3 },
    })
    expect(new Date(third?.run_at ?? later).getTime()).toBeLessThanOrEqual(Date.now())

    const records = new Map((await jobRecordsOf(jobIds)).map((r) => [r.job_id, r]))
    expect(jobIds.map((id) => records.get(id.toString()))).toEqual([
      {
        job_id: jobIds[0]?.toString(),
        task: 'test_alpha',
        order_id: order.id,
        state: 'queued',
        max_attempts: 7,
        payload: { orderId: order.id, n: 1 },
      },
      {
        job_id: jobIds[1]?.toString(),
        task: 'test_beta',
        order_id: null,
        state: 'scheduled',
        max_attempts: 5,
        payload: { n: 2 },
      },
      {
        job_id: jobIds[2]?.toString(),
        task: 'test_alpha',
        order_id: null,
        state: 'queued',
        max_attempts: 5,
        payload: { n: 3 },
      },
    ])
    const events = await eventsOf(jobIds)
    expect(events.map((e) => [e.job_id, e.event, e.task, e.order_id, e.actor, e.detail])).toEqual([
      [jobIds[0]?.toString(), 'enqueued', 'test_alpha', order.id, 'tester', 'the first'],
      [jobIds[1]?.toString(), 'enqueued', 'test_beta', null, null, `run at ${later.toISOString()}`],
      [jobIds[2]?.toString(), 'enqueued', 'test_alpha', null, 'tester', null],
    ])
  })

  it('costs the same one statement for many jobs, ids in input order', async () => {
    const before = counted.statements().length
    const { jobIds } = await addJobs(
      counted.db,
      Array.from({ length: 60 }, (_, i) => ({
        task: 'test_many',
        payload: { n: i },
        jobKey: `test_many:${i}`,
        queueName: `test_many:${i % 4}`,
      })),
    )
    expect(counted.statements().length - before).toBe(1)
    const payloadOf = new Map((await graphileJobs(jobIds)).map((j) => [j.id, j.payload]))
    expect(jobIds.map((id) => payloadOf.get(id.toString()))).toEqual(Array.from({ length: 60 }, (_, i) => ({ n: i })))
    expect(await jobRecordsOf(jobIds)).toHaveLength(60)
    expect((await eventsOf(jobIds)).map((e) => e.event)).toEqual(Array.from({ length: 60 }, () => 'enqueued'))
  })

  it('an empty list writes nothing and sends no statement', async () => {
    const was = await counts()
    const before = counted.statements().length
    expect(await addJobs(counted.db, [])).toEqual({ jobIds: [] })
    expect(counted.statements().length).toBe(before)
    expect(await counts()).toEqual(was)
  })

  it('a job key added again replaces the waiting job, as add_job does: in two calls and twice in one call', async () => {
    const {
      jobIds: [firstId],
    } = await addJobs(web.db, [
      { task: 'test_keyed', payload: { v: 1 }, jobKey: 'test_keyed:a', runAt: new Date(Date.now() + 60_000) },
    ])
    const {
      jobIds: [againId],
    } = await addJobs(web.db, [{ task: 'test_keyed', payload: { v: 2 }, jobKey: 'test_keyed:a', priority: 4 }])
    expect(firstId).toBeDefined()
    expect(againId).toBe(firstId)
    const ids = [firstId ?? 0n]
    expect(await graphileJobs(ids)).toMatchObject([{ key: 'test_keyed:a', priority: 4, payload: { v: 2 } }])
    expect(await jobRecordsOf(ids)).toMatchObject([{ state: 'queued', payload: { v: 2 } }])
    expect((await eventsOf(ids)).map((e) => e.event)).toEqual(['enqueued', 'enqueued'])

    // within one call the later row replaces the earlier one's job; its record is the one
    // two addJob calls would leave (the first's row, queued, with the last payload)
    const { jobIds } = await addJobs(web.db, [
      {
        task: 'test_keyed',
        payload: { v: 1 },
        jobKey: 'test_keyed:b',
        runAt: new Date(Date.now() + 60_000),
        maxAttempts: 3,
      },
      { task: 'test_other', payload: { v: 0 } },
      { task: 'test_keyed', payload: { v: 2 }, jobKey: 'test_keyed:b' },
    ])
    expect(jobIds[0]).toBe(jobIds[2])
    expect(jobIds[1]).not.toBe(jobIds[0])
    const keyed = [jobIds[0] ?? 0n]
    const [job] = await graphileJobs(keyed)
    expect(job).toMatchObject({ key: 'test_keyed:b', payload: { v: 2 }, max_attempts: 5 })
    expect(new Date(job?.run_at ?? 0).getTime()).toBeLessThanOrEqual(Date.now())
    expect(await jobRecordsOf(keyed)).toMatchObject([
      { task: 'test_keyed', state: 'queued', max_attempts: 3, payload: { v: 2 } },
    ])
    expect((await eventsOf(keyed)).map((e) => e.event)).toEqual(['enqueued', 'enqueued'])
  })

  it('addJob is addJobs with one job', async () => {
    const { jobId } = await addJob(web.db, {
      task: 'test_single',
      payload: { one: true },
      queueName: 'test_single',
      maxAttempts: 2,
      detail: 'alone',
    })
    expect(await graphileJobs([jobId])).toMatchObject([
      { task: 'test_single', queue: 'test_single', max_attempts: 2, payload: { one: true } },
    ])
    expect(await jobRecordsOf([jobId])).toMatchObject([{ state: 'queued', max_attempts: 2 }])
    expect(await eventsOf([jobId])).toMatchObject([{ event: 'enqueued', detail: 'alone' }])
  })

  it('the sqs transport: the outbox row (the payload and its job id) instead of a graphile job, its history and event, in one statement', async () => {
    const staff = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: staff.id })
    const was = await counts()
    const before = counted.statements().length
    const { jobId } = await addJob(counted.db, {
      task: 'mint_send',
      payload: { orderId: order.id },
      jobKey: `mint_send:${order.id}`, // SQS has no keys: left unused
      maxAttempts: 4,
      orderId: order.id,
      actor: 'a@mintdesk.test',
      detail: 'mint 1 oz',
      transport: 'sqs',
    })
    expect(counted.statements().length - before).toBe(1)
    const [outbox] = await t.db.execute<{ job_id: string; task: string; order_id: string; payload: unknown }>(
      sql`select job_id::text as job_id, task, order_id::text as order_id, payload from sqs_outbox where job_id = ${jobId.toString()}::bigint`,
    )
    expect(outbox).toEqual({
      job_id: jobId.toString(),
      task: 'mint_send',
      order_id: order.id,
      payload: { orderId: order.id, jobId: jobId.toString() },
    })
    expect(await jobRecordsOf([jobId])).toEqual([
      {
        job_id: jobId.toString(),
        task: 'mint_send',
        order_id: order.id,
        state: 'queued',
        max_attempts: 4,
        payload: { orderId: order.id },
      },
    ])
    expect(await eventsOf([jobId])).toEqual([
      {
        job_id: jobId.toString(),
        event: 'enqueued',
        task: 'mint_send',
        order_id: order.id,
        actor: 'a@mintdesk.test',
        detail: 'mint 1 oz (SQS, through the outbox)',
      },
    ])
    // no graphile job
    expect(await counts()).toEqual({
      jobs: was?.jobs,
      records: (was?.records ?? 0) + 1,
      events: (was?.events ?? 0) + 1,
    })
  })

  it('the sqs transport refuses what only graphile-worker has (a run time, a queue, a priority, flags), writing nothing', async () => {
    const staff = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: staff.id })
    const was = await counts()
    const job = { task: 'mint_send', payload: { orderId: order.id }, orderId: order.id, transport: 'sqs' as const }
    for (const extra of [{ runAt: new Date() }, { queueName: 'q' }, { priority: 1 }, { flags: ['notify'] }]) {
      await expect(addJob(web.db, { ...job, ...extra })).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '22023' }),
      })
    }
    expect(await counts()).toEqual(was)
  })

  it('public.enqueue_job from SQL: history false adds the job alone (the notification wake-up); a key it does not read, or a payload that is not JSON text, is refused (22023)', async () => {
    const was = await counts()
    const enqueue = (spec: Record<string, unknown>) =>
      web.db.execute<{ id: string | null }>(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)::text as id`)
    const [added] = await enqueue({ task: 'test_wake', payload: '{}', job_key: 'test_wake', history: false })
    expect(added?.id).toEqual(expect.any(String))
    expect(await graphileJobs([BigInt(added?.id ?? 0)])).toMatchObject([{ task: 'test_wake', key: 'test_wake' }])
    expect(await counts()).toEqual({ ...was, jobs: (was?.jobs ?? 0) + 1 })
    for (const wrong of [
      { task: 'test_wake', payload: '{}', jobKey: 'typo' },
      { task: 'test_wake', payload: {} },
      { payload: '{}' },
      { task: 'test_wake', payload: '{}', transport: 'carrier pigeon' },
    ]) {
      await expect(enqueue(wrong)).rejects.toMatchObject({ cause: expect.objectContaining({ code: '22023' }) })
    }
    expect(await counts()).toEqual({ ...was, jobs: (was?.jobs ?? 0) + 1 })
  })
})
