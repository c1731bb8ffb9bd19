import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TASK } from '@/lib/jobs/jobKeys'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { updateJobRecord } from '../db/updateJobRecord'
import { createLogger } from './logger'
import { sweepStaleWorkers } from './sweepStaleWorkers'

let t: TestDatabase
const log = createLogger({ level: 'silent' })
const DEAD = 'pool-killed'

beforeAll(async () => {
  t = await createTestDatabase()
  await t.db.execute(
    sql`insert into workers (id, host, pid, last_seen_at) values (${DEAD}, 'gone', 1, now() - interval '1 minute')`,
  )
})

afterAll(async () => {
  await t.drop()
})

/** A job as graphile-worker holds it after the killed worker took it at `attempt` (get_job: attempts + 1, locked). */
async function takenJob(p: {
  task: string
  key: string | null
  maxAttempts: number
  attempt: number
}): Promise<bigint> {
  const [job] = await t.db.execute<{ id: string }>(sql`
    select id::text as id from graphile_worker.add_job(${p.task}, '{}'::json, job_key => ${p.key}, max_attempts => ${p.maxAttempts})`)
  const jobId = BigInt(job?.id ?? '0')
  await t.db.execute(
    sql`update graphile_worker._private_jobs set locked_by = ${DEAD}, locked_at = now(), attempts = ${p.attempt} where id = ${jobId}::bigint`,
  )
  // runTask's record of the attempt that started
  await updateJobRecord(t.db, {
    jobId,
    task: p.task,
    orderId: null,
    payload: {},
    attempts: p.attempt,
    maxAttempts: p.maxAttempts,
    state: 'running',
  })
  return jobId
}

const jobRow = async (jobId: bigint) =>
  (
    await t.db.execute<{
      attempts: number
      locked_by: string | null
      last_error: string | null
      key: string | null
    }>(sql`
    select attempts, locked_by, last_error, key from graphile_worker._private_jobs where id = ${jobId}::bigint`)
  )[0]
const recordOf = async (jobId: bigint) =>
  (
    await t.db.execute<{ state: string; last_error: string | null }>(
      sql`select state, last_error from job_records where job_id = ${jobId}::bigint`,
    )
  )[0]
const eventsOf = async (jobId: bigint) =>
  (
    await t.db.execute<{ event: string; detail: string | null }>(
      sql`select event, detail from job_events where job_id = ${jobId}::bigint order by id`,
    )
  ).map((e) => e)

describe('the sweep of a killed worker', () => {
  it('hands back a job whose key was taken over while it ran, with the attempts of the run our history saw (not a dead letter without an error)', async () => {
    const jobId = await takenJob({ task: TASK.notifyDispatch, key: 'sweep-test-key', maxAttempts: 10, attempt: 1 })
    // a wake-up adds the key again before the run let go of it:
    // graphile-worker clears the key and ends the running job's retries
    await t.db.execute(
      sql`select graphile_worker.add_job(${TASK.notifyDispatch}, '{}'::json, job_key => 'sweep-test-key', max_attempts => 10)`,
    )
    expect(await jobRow(jobId)).toMatchObject({ attempts: 10, key: null, locked_by: DEAD })

    const unlocked = await sweepStaleWorkers(t.db, { selfId: 'pool-alive', staleAfterMs: 1_000, log })
    expect(unlocked.find((j) => j.jobId === jobId)).toMatchObject({ attempts: 1, takenOver: true })
    expect(await jobRow(jobId)).toMatchObject({ attempts: 1, locked_by: null, last_error: null })
    expect(await recordOf(jobId)).toMatchObject({ state: 'retrying' })
    const events = await eventsOf(jobId)
    expect(events.map((e) => e.event)).toEqual(['unlocked'])
    expect(events[0]?.detail).toContain('taken over by a newer job')
  })

  it('a job that died in its last attempt is a dead letter whose error graphile-worker keeps too', async () => {
    await t.db.execute(
      sql`update workers set stopped_at = null, last_seen_at = now() - interval '1 minute' where id = ${DEAD}`,
    )
    const jobId = await takenJob({ task: TASK.notifyDispatch, key: null, maxAttempts: 3, attempt: 3 })
    const unlocked = await sweepStaleWorkers(t.db, { selfId: 'pool-alive', staleAfterMs: 1_000, log })
    expect(unlocked.find((j) => j.jobId === jobId)).toMatchObject({ attempts: 3, takenOver: false })
    const row = await jobRow(jobId)
    expect(row).toMatchObject({ attempts: 3, locked_by: null })
    expect(row?.last_error).toContain(`worker ${DEAD} died during the last attempt (3 of 3)`)
    expect(await recordOf(jobId)).toMatchObject({ state: 'dead' })
    expect((await eventsOf(jobId)).map((e) => e.event)).toEqual(['unlocked', 'dead'])
  })
})
