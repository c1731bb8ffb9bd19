import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addPlainJob, setJobState } from '@/tests/helpers/jobs'
import { readJobMetrics } from './readJobMetrics'

/**
 * Known histories in, known figures out: the dashboard's numbers must be what the
 * database holds.
 */
describe('readJobMetrics', () => {
  let t: TestDatabase
  const limits = { heartbeatMs: 2_000, staleAfterMs: 30_000 }

  async function events(task: string, event: string, durations: (number | null)[], agoSeconds: number) {
    await t.db.execute(sql`
      insert into job_events (task, event, duration_ms, at)
      select ${task}, ${event}, d, now() - make_interval(secs => ${agoSeconds})
      from unnest(${`{${durations.map((d) => (d === null ? 'NULL' : d)).join(',')}}`}::int[]) d`)
  }

  beforeAll(async () => {
    t = await createTestDatabase()
    // alpha: 100 successes taking 1..100 ms, 10 minutes ago
    await events(
      'alpha',
      'succeeded',
      Array.from({ length: 100 }, (_, i) => i + 1),
      600,
    )
    // beta: 6 successes, 2 failures (the last one died), with known run times
    await events('beta', 'succeeded', [200, 200, 200, 400, 400, 400], 300)
    await events('beta', 'failed', [1_000, 3_000], 120)
    await events('beta', 'dead', [null], 120)
    // outside the window: must not count
    await events('alpha', 'failed', [9_999, 9_999, 9_999], 7_200)
    await events('alpha', 'enqueued', [null, null, null], 300)

    // live jobs: 2 queued alpha (the older due 10 minutes ago), 1 scheduled, 1 running, 1 retrying, 2 dead beta
    const old = await addPlainJob(t.db, { task: 'alpha' })
    await t.db.execute(
      sql`update graphile_worker._private_jobs set run_at = now() - interval '10 minutes' where id = ${old.toString()}::bigint`,
    )
    await addPlainJob(t.db, { task: 'alpha' })
    await addPlainJob(t.db, { task: 'alpha', runAt: new Date(Date.now() + 3_600_000) })
    await setJobState(t.db, await addPlainJob(t.db, { task: 'beta' }), 'running')
    const retrying = await addPlainJob(t.db, { task: 'beta' })
    await setJobState(t.db, retrying, 'retrying')
    // a retrying job waiting long is not "queued": it must not make the oldest age
    await t.db.execute(
      sql`update graphile_worker._private_jobs set run_at = now() - interval '2 hours' where id = ${retrying.toString()}::bigint`,
    )
    await setJobState(t.db, await addPlainJob(t.db, { task: 'beta' }), 'dead', { error: 'Error: first' })
    await setJobState(t.db, await addPlainJob(t.db, { task: 'beta' }), 'dead', { error: 'Error: second' })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('counts depth per task and state', async () => {
    const m = await readJobMetrics(t.db, limits)
    expect(m.depth).toEqual([
      { task: 'alpha', state: 'queued', count: 2 },
      { task: 'alpha', state: 'scheduled', count: 1 },
      { task: 'beta', state: 'running', count: 1 },
      { task: 'beta', state: 'retrying', count: 1 },
      { task: 'beta', state: 'dead', count: 2 },
    ])
    expect(m.totals).toEqual({ queued: 2, scheduled: 1, running: 1, retrying: 1, dead: 2 })
  })

  it('gives the oldest queued job and its age', async () => {
    const m = await readJobMetrics(t.db, limits)
    expect(m.oldestQueued?.task).toBe('alpha')
    expect(m.oldestQueued?.ageSeconds).toBeGreaterThanOrEqual(600)
    expect(m.oldestQueued?.ageSeconds).toBeLessThan(630)
    const alpha = m.tasks.find((x) => x.task === 'alpha')!
    expect(alpha.oldestQueuedAgeSeconds).toBeGreaterThanOrEqual(600)
    expect(m.tasks.find((x) => x.task === 'beta')!.oldestQueuedAgeSeconds).toBeNull()
  })

  it('computes failure rate and p50/p95 run time per task over the window', async () => {
    const m = await readJobMetrics(t.db, limits)
    expect(m.windowSeconds).toBe(3600)
    const alpha = m.tasks.find((x) => x.task === 'alpha')!
    expect(alpha).toMatchObject({
      succeeded: 100,
      failed: 0,
      failureRate: 0,
      p50Ms: 50,
      p95Ms: 95,
      maxMs: 100,
      died: 0,
    })
    const beta = m.tasks.find((x) => x.task === 'beta')!
    // 8 attempts: 200 200 200 400 400 400 1000 3000 -> p50 = 4th = 400, p95 = 8th = 3000
    expect(beta).toMatchObject({
      succeeded: 6,
      failed: 2,
      failureRate: 0.25,
      p50Ms: 400,
      p95Ms: 3000,
      maxMs: 3000,
      died: 1,
    })
    expect(m.limits).toEqual({ heartbeatMs: 2_000, staleAfterMs: 30_000, lockTimeoutMs: 4 * 3600 * 1000 })
  })

  it('a longer window takes the older failures in', async () => {
    const m = await readJobMetrics(t.db, { ...limits, windowSeconds: 3 * 3600, bucketSeconds: 600 })
    const alpha = m.tasks.find((x) => x.task === 'alpha')!
    expect(alpha).toMatchObject({ succeeded: 100, failed: 3, maxMs: 9_999 })
    expect(alpha.failureRate).toBeCloseTo(3 / 103, 10)
    expect(m.throughput.buckets).toHaveLength(18)
  })

  it('lists the dead letters, newest first, with the exact count', async () => {
    const m = await readJobMetrics(t.db, limits)
    expect(m.deadLetters.count).toBe(2)
    expect(m.deadLetters.recent.map((d) => d.lastError).sort()).toEqual(['Error: first', 'Error: second'])
    expect(m.deadLetters.recent[0]).toMatchObject({ task: 'beta', attempts: 5, maxAttempts: 5 })
  })

  it('buckets throughput per minute over the last hour', async () => {
    const m = await readJobMetrics(t.db, limits)
    expect(m.throughput.bucketSeconds).toBe(60)
    expect(m.throughput.buckets).toHaveLength(60)
    const sum = (k: 'enqueued' | 'succeeded' | 'failed') => m.throughput.buckets.reduce((s, b) => s + b[k], 0)
    expect(sum('succeeded')).toBe(106)
    expect(sum('failed')).toBe(2)
    expect(sum('enqueued')).toBe(3 + 7) // 3 inserted + the 7 live jobs added through addJob
    const ats = m.throughput.buckets.map((b) => Date.parse(b.at))
    for (let i = 1; i < ats.length; i++) expect(ats[i]! - ats[i - 1]!).toBe(60_000)
    expect(Date.now() - ats[ats.length - 1]!).toBeLessThan(61_000)
    const alphaBucket = m.throughput.buckets.find((b) => b.succeeded === 100)
    expect(alphaBucket).toBeDefined()
  })
})
