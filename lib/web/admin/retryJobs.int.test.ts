import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statusForCode } from '@/lib/errors/http'
import { JobNotRetryableError, JobRunningError } from '@/lib/web/errors/admin'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, addPlainJob, completeJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { retryJob } from './retryJob'
import { retryJobs } from './retryJobs'

describe('retryJobs / retryJob', () => {
  let t: TestDatabase
  let admin: { id: string; email: string }
  let staffId: string

  beforeAll(async () => {
    t = await createTestDatabase()
    admin = await insertUser(t.db, 'admin')
    staffId = (await insertUser(t.db, 'staff')).id
  })
  afterAll(async () => {
    await t.drop()
  })

  async function live(jobId: bigint) {
    const rows = await t.db.execute<{ attempts: number; due: boolean; locked_at: string | null }>(
      sql`select attempts::int as attempts, run_at <= now() as due, locked_at::text from graphile_worker._private_jobs where id = ${jobId.toString()}::bigint`,
    )
    return rows[0]
  }
  async function order(id: string) {
    const rows = await t.db.execute<{ status: string; failure_reason: string | null }>(
      sql`select status::text, failure_reason from mint_orders where id = ${id}::uuid`,
    )
    return rows[0]
  }

  it('runs a dead mint job again now with attempts reset; its failed order goes back to pending; audited', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'failed', failureReason: 'AccountFrozen' })
    const jobId = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, jobId, 'dead', { error: 'AccountFrozen' })

    const result = await retryJob(t.db, { jobId, actor: admin })
    expect(result).toEqual({
      jobId: jobId.toString(),
      task: 'mint_send',
      orderId: o.id,
      orderStatus: 'pending',
      state: 'queued',
    })
    expect(await live(jobId)).toEqual({ attempts: 0, due: true, locked_at: null })
    expect(await order(o.id)).toEqual({ status: 'pending', failure_reason: null })

    const [record] = await t.db.execute<{ state: string; attempts: number }>(
      sql`select state, attempts from job_records where job_id = ${jobId.toString()}::bigint`,
    )
    expect(record).toEqual({ state: 'queued', attempts: 0 })
    const events = await t.db.execute<{ event: string; actor: string; detail: string }>(
      sql`select event, actor, detail from job_events where job_id = ${jobId.toString()}::bigint and event = 'retried'`,
    )
    expect(events).toHaveLength(1)
    expect(events[0]!.actor).toBe(admin.email)
    expect(events[0]!.detail).toBe(
      `Retried by ${admin.email}: attempts reset to 0 of 5 (was dead after 5 of 5 attempts)`,
    )
    const audit = await t.db.execute<{ actor_email: string; action: string; target_id: string }>(
      sql`select actor_email, action, target_id from audit_log where target_id = ${jobId.toString()}`,
    )
    expect(audit).toEqual([{ actor_email: admin.email, action: 'job.retry', target_id: jobId.toString() }])
  })

  it('puts a failed order with a signed transaction back to submitted (the worker re-sends the stored bytes)', async () => {
    const signer = await insertSigner(t.db)
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'failed', failureReason: 'stuck' })
    await reserveNonce(t.db, { signer, nonce: 0n, orderId: o.id, signed: true })
    const jobId = await addMintJob(t.db, { orderId: o.id, task: 'order_confirm' })
    await setJobState(t.db, jobId, 'dead')
    const result = await retryJob(t.db, { jobId, actor: admin })
    expect(result.orderStatus).toBe('submitted')
    expect(await order(o.id)).toEqual({ status: 'submitted', failure_reason: null })
  })

  it('retries a retrying job at once; leaves its (not failed) order alone', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'pending' })
    const jobId = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, jobId, 'retrying', { attempts: 2 })
    const result = await retryJob(t.db, { jobId, actor: admin })
    expect(result.orderStatus).toBe('pending')
    expect(await live(jobId)).toEqual({ attempts: 0, due: true, locked_at: null })
  })

  it('gives a job stopped by a permanent error its own max attempts back', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'failed' })
    const jobId = await addMintJob(t.db, { orderId: o.id })
    // the worker's endAttemptsNow: max_attempts lowered to the attempts made
    await t.db.execute(
      sql`update graphile_worker._private_jobs set attempts = 1, max_attempts = 1, last_error = 'MintRevertedError: AccountFrozen' where id = ${jobId.toString()}::bigint`,
    )
    await retryJob(t.db, { jobId, actor: admin })
    const [row] = await t.db.execute<{ attempts: number; max_attempts: number }>(
      sql`select attempts::int as attempts, max_attempts::int as max_attempts from graphile_worker._private_jobs where id = ${jobId.toString()}::bigint`,
    )
    expect(row).toEqual({ attempts: 0, max_attempts: 5 })
    // the timeline counts against the job's own maximum, and says why it stopped after one attempt
    const [retried] = await t.db.execute<{ detail: string }>(
      sql`select detail from job_events where job_id = ${jobId.toString()}::bigint and event = 'retried'`,
    )
    expect(retried?.detail).toBe(
      `Retried by ${admin.email}: attempts reset to 0 of 5 (was dead after 1 of 5 attempts: a permanent error ended it at once)`,
    )
  })

  it('never touches a running job: 409 job_running, nothing written', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'pending' })
    const jobId = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, jobId, 'running', { workerId: 'w-9' })
    const error = await retryJob(t.db, { jobId, actor: admin }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JobRunningError)
    expect(statusForCode((error as JobRunningError).code)).toBe(409)
    expect(await live(jobId)).toMatchObject({ attempts: 1 })
    const audit = await t.db.execute(sql`select 1 from audit_log where target_id = ${jobId.toString()}`)
    expect(audit).toHaveLength(0)
  })

  it('refuses a queued or finished job (409) and an unknown one (404)', async () => {
    const queued = await addPlainJob(t.db, { task: 'nonce_health' })
    await expect(retryJob(t.db, { jobId: queued, actor: admin })).rejects.toBeInstanceOf(JobNotRetryableError)
    const done = await addPlainJob(t.db, { task: 'nonce_health' })
    await completeJob(t.db, done)
    await expect(retryJob(t.db, { jobId: done, actor: admin })).rejects.toMatchObject({ state: 'done' })
    await expect(retryJob(t.db, { jobId: 999_999n, actor: admin })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('retries selected jobs and reports what it skipped', async () => {
    const a = await addPlainJob(t.db, { task: 'sel_task' })
    const b = await addPlainJob(t.db, { task: 'sel_task' })
    const c = await addPlainJob(t.db, { task: 'sel_task' })
    await setJobState(t.db, a, 'dead')
    await setJobState(t.db, b, 'dead')
    await setJobState(t.db, c, 'running')
    const result = await retryJobs(t.db, { jobIds: [a, b, c, 424_242n], actor: admin })
    expect(result.retried.map((r) => r.jobId)).toEqual([a.toString(), b.toString()])
    expect(result.skipped).toEqual([
      { jobId: '424242', reason: 'not_found', state: null },
      { jobId: c.toString(), reason: 'running', state: 'running' },
    ])
    expect(result.truncated).toBe(false)
  })

  it('retries all dead jobs matching a task filter, and only those', async () => {
    const dead = [
      await addPlainJob(t.db, { task: 'bulk_a' }),
      await addPlainJob(t.db, { task: 'bulk_a' }),
      await addPlainJob(t.db, { task: 'bulk_a' }),
    ]
    for (const id of dead) await setJobState(t.db, id, 'dead')
    const otherTask = await addPlainJob(t.db, { task: 'bulk_b' })
    await setJobState(t.db, otherTask, 'dead')
    const retrying = await addPlainJob(t.db, { task: 'bulk_a' })
    await setJobState(t.db, retrying, 'retrying')

    const result = await retryJobs(t.db, { state: 'dead', task: 'bulk_a', actor: admin })
    expect(result.retried.map((r) => r.jobId).sort()).toEqual(dead.map(String).sort())
    expect(await live(otherTask)).toMatchObject({ attempts: 5 })
    expect(await live(retrying)).toMatchObject({ attempts: 1 })
    const audits = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'job.retry' and detail->'filter'->>'task' = 'bulk_a'`,
    )
    expect(audits[0]!.n).toBe(3)
    // nothing left to retry: a second call is a no-op
    expect((await retryJobs(t.db, { state: 'dead', task: 'bulk_a', actor: admin })).retried).toEqual([])
  })

  it('a failed order running again holds its bars again; if another order took one meanwhile, the retry is refused (409)', async () => {
    const barsOf = (orderId: string) =>
      t.db.execute<{ id: string; status: string; order_id: string | null }>(sql`
        select b.id::text as id, b.status::text as status, b.order_id::text as order_id from vault_bars b
        join mint_order_bars mb on mb.bar_id = b.id where mb.order_id = ${orderId}::uuid order by mb.position`)
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'failed' })
    expect((await barsOf(o.id)).map((b) => [b.status, b.order_id])).toEqual([['withdrawn', null]])
    const jobId = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, jobId, 'dead')
    await retryJob(t.db, { jobId, actor: admin })
    // never on a list, so it is held as missing: the order cannot be signed until a list has it
    expect((await barsOf(o.id)).map((b) => [b.status, b.order_id])).toEqual([['missing', o.id]])

    const lost = await insertOrder(t.db, { requestedBy: staffId, status: 'failed' })
    const other = await insertOrder(t.db, { requestedBy: staffId, status: 'pending' })
    const [bar] = await barsOf(lost.id)
    await t.db.execute(
      sql`update vault_bars set status = 'reserved', order_id = ${other.id}::uuid where id = ${bar!.id}::uuid`,
    )
    const lostJob = await addMintJob(t.db, { orderId: lost.id })
    await setJobState(t.db, lostJob, 'dead')
    const error = await retryJob(t.db, { jobId: lostJob, actor: admin }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'bar_already_used' })
    expect(await order(lost.id)).toMatchObject({ status: 'failed' })
    expect(await live(lostJob)).toMatchObject({ attempts: 5 })
  })
})
