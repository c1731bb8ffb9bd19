import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { statusForCode } from '@/lib/errors/http'
import { addJob } from '@/lib/jobs/addJob'
import { NONCE_HEALTH_JOB_KEY, signerConfirmJobKey, TASK } from '@/lib/jobs/jobKeys'
import { JobNotCancellableError, JobRunningError, OrderConfirmedError } from '@/lib/web/errors/admin'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, addPlainJob, completeJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { cancelJob } from './cancelJob'

// cancelJob runs as the web's own database role (mintdesk_web), as in production: the
// nonce it reports stays as it is here, the worker releases it (tests/worker/cancelGapFill.int.test.ts)
describe('cancelJob', () => {
  let t: TestDatabase
  let web: DbClient
  let admin: { id: string; email: string }
  let staffId: string
  let signer: string
  let nextNonce = 0n

  beforeAll(async () => {
    t = await createTestDatabase()
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'cancel-as-web' })
    admin = await insertUser(t.db, 'admin')
    staffId = (await insertUser(t.db, 'staff')).id
    signer = await insertSigner(t.db)
  })
  afterAll(async () => {
    await web?.close()
    await t.drop()
  })

  const isLive = async (jobId: bigint) =>
    (await t.db.execute(sql`select 1 from graphile_worker._private_jobs where id = ${jobId.toString()}::bigint`))
      .length === 1
  const orderStatus = async (id: string) =>
    (await t.db.execute<{ s: string }>(sql`select status::text as s from mint_orders where id = ${id}::uuid`))[0]!.s
  const nonceState = async (orderId: string) =>
    (
      await t.db.execute<{ s: string }>(
        sql`select state::text as s from signer_nonces where order_id = ${orderId}::uuid`,
      )
    )[0]?.s

  it("refuses the signer's confirmer (it follows every in-flight order of the signer) and leaves it queued", async () => {
    const { jobId } = await addJob(t.db, {
      task: TASK.signerConfirm,
      jobKey: signerConfirmJobKey(signer),
      payload: { signer },
      runAt: new Date(Date.now() + 600_000),
    })
    const refused = await cancelJob(web.db, { jobId, actor: admin }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(JobNotCancellableError)
    expect((refused as JobNotCancellableError).message).toContain('confirms every in-flight order of its signer')
    expect(statusForCode((refused as JobNotCancellableError).code)).toBe(409)
    expect(await isLive(jobId)).toBe(true)
    await t.db.execute(sql`select graphile_worker.complete_jobs(array[${jobId.toString()}::bigint])`)
  })

  it('removes a dead mint job, cancels its order, reports its signed nonce and wakes the nonce health job; one audit row, a timeline event', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'failed' })
    const nonce = nextNonce++
    await reserveNonce(t.db, { signer, nonce, orderId: o.id, signed: true })
    const jobId = await addMintJob(t.db, { orderId: o.id, task: 'order_confirm' })
    await setJobState(t.db, jobId, 'dead')
    const { jobId: health } = await addJob(t.db, {
      task: 'nonce_health',
      jobKey: NONCE_HEALTH_JOB_KEY,
      payload: {},
      runAt: new Date(Date.now() + 600_000),
    })

    const result = await cancelJob(web.db, { jobId, actor: admin })
    expect(result).toEqual({
      jobId: jobId.toString(),
      state: 'cancelled',
      orderId: o.id,
      orderStatus: 'cancelled',
      cancelledJobIds: [jobId.toString()],
      releasedNonce: { signer, nonce: Number(nonce) },
    })
    expect(await isLive(jobId)).toBe(false)
    expect(await orderStatus(o.id)).toBe('cancelled')
    // the web does not write nonces: the worker's nonce health check, woken now, releases it
    expect(await nonceState(o.id)).toBe('signed')
    const [wake] = await t.db.execute<{ soon: boolean }>(
      sql`select run_at < now() + interval '1 minute' as soon from graphile_worker._private_jobs where id = ${health.toString()}::bigint`,
    )
    expect(wake).toEqual({ soon: true })
    await cancelJob(t.db, { jobId: health, actor: admin })
    const [record] = await t.db.execute<{ state: string; finished: boolean }>(
      sql`select state, finished_at is not null as finished from job_records where job_id = ${jobId.toString()}::bigint`,
    )
    expect(record).toEqual({ state: 'cancelled', finished: true })
    const events = await t.db.execute<{ actor: string; detail: string }>(
      sql`select actor, detail from job_events where job_id = ${jobId.toString()}::bigint and event = 'cancelled'`,
    )
    expect(events).toHaveLength(1)
    expect(events[0]!.actor).toBe(admin.email)
    expect(events[0]!.detail).toContain(`nonce ${nonce}`)
    const audit = await t.db.execute<{ action: string; actor_email: string }>(
      sql`select action, actor_email from audit_log where target_id = ${jobId.toString()}`,
    )
    expect(audit).toEqual([{ action: 'job.cancel', actor_email: admin.email }])
    // the requester hears of it (a mint.failed event of status cancelled), and the order page says it first
    const notified = await t.db.execute<{ type: string; status: string; reason: string }>(sql`
      select type, payload->>'status' as status, payload->>'reason' as reason from notification_events where order_id = ${o.id}::uuid`)
    expect(notified).toEqual([{ type: 'mint.failed', status: 'cancelled', reason: 'cancelled' }])
    const page = await getMintOrderOrThrow(web.db, { orderId: o.id, user: { id: admin.id, role: 'admin' } })
    expect(page.outcome).toMatchObject({ status: 'cancelled', reason: 'cancelled', by: admin.email })
  })

  it('cancels every live job of the order at once, and a reserved (unsigned) nonce is reported too', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'pending' })
    await reserveNonce(t.db, { signer, nonce: nextNonce++, orderId: o.id })
    const send = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, send, 'retrying')
    const confirm = await addMintJob(t.db, {
      orderId: o.id,
      task: 'order_confirm',
      runAt: new Date(Date.now() + 60_000),
    })
    const result = await cancelJob(web.db, { jobId: confirm, actor: admin })
    expect(result.cancelledJobIds).toEqual([send.toString(), confirm.toString()])
    expect(await isLive(send)).toBe(false)
    expect(await isLive(confirm)).toBe(false)
    expect(result.releasedNonce).toMatchObject({ signer })
    expect(await nonceState(o.id)).toBe('reserved')
  })

  it('refuses while a worker holds the job or another job of the order: 409, nothing changes', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'pending' })
    const send = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, send, 'running')
    const error = await cancelJob(web.db, { jobId: send, actor: admin }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JobRunningError)
    expect(statusForCode((error as JobRunningError).code)).toBe(409)
    expect((error as Error).message).toMatch(/running/)

    const confirm = await addMintJob(t.db, {
      orderId: o.id,
      task: 'order_confirm',
      runAt: new Date(Date.now() + 60_000),
    })
    await expect(cancelJob(web.db, { jobId: confirm, actor: admin })).rejects.toBeInstanceOf(JobRunningError)
    expect(await isLive(send)).toBe(true)
    expect(await isLive(confirm)).toBe(true)
    expect(await orderStatus(o.id)).toBe('pending')
  })

  it('refuses a confirmed order, or one whose transaction is mined (409 order_confirmed)', async () => {
    const confirmed = await insertOrder(t.db, { requestedBy: staffId, status: 'confirmed' })
    const a = await addMintJob(t.db, { orderId: confirmed.id, task: 'order_confirm' })
    await expect(cancelJob(web.db, { jobId: a, actor: admin })).rejects.toBeInstanceOf(OrderConfirmedError)
    expect(await isLive(a)).toBe(true)

    const mined = await insertOrder(t.db, { requestedBy: staffId, status: 'submitted' })
    await reserveNonce(t.db, { signer, nonce: nextNonce++, orderId: mined.id, minedBlock: 12n })
    const b = await addMintJob(t.db, { orderId: mined.id, task: 'order_confirm' })
    await setJobState(t.db, b, 'dead')
    await expect(cancelJob(web.db, { jobId: b, actor: admin })).rejects.toMatchObject({
      message: expect.stringMatching(/mined/),
    })
    expect(await orderStatus(mined.id)).toBe('submitted')
    expect(await nonceState(mined.id)).toBe('mined')
  })

  it('cancels a job without an order; refuses a finished job (409) and an unknown one (404)', async () => {
    const plain = await addPlainJob(t.db, { task: 'nonce_health', runAt: new Date(Date.now() + 60_000) })
    expect(await cancelJob(web.db, { jobId: plain, actor: admin })).toMatchObject({
      orderId: null,
      releasedNonce: null,
    })
    await expect(cancelJob(web.db, { jobId: plain, actor: admin })).rejects.toMatchObject({ state: 'cancelled' })
    const done = await addPlainJob(t.db, { task: 'nonce_health' })
    await completeJob(t.db, done)
    await expect(cancelJob(web.db, { jobId: done, actor: admin })).rejects.toBeInstanceOf(JobNotCancellableError)
    await expect(cancelJob(web.db, { jobId: 987_654n, actor: admin })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('frees the bars of the order it cancels, in the same transaction (invariant 4)', async () => {
    const o = await insertOrder(t.db, { requestedBy: staffId, status: 'pending', barsFineOz: ['401.084', '399.960'] })
    const barsOf = () =>
      t.db.execute<{ status: string; order_id: string | null }>(sql`
        select b.status::text as status, b.order_id::text as order_id from vault_bars b
        join mint_order_bars mb on mb.bar_id = b.id where mb.order_id = ${o.id}::uuid order by mb.position`)
    expect(await barsOf()).toEqual([
      { status: 'reserved', order_id: o.id },
      { status: 'reserved', order_id: o.id },
    ])
    const jobId = await addMintJob(t.db, { orderId: o.id })
    await setJobState(t.db, jobId, 'dead')
    await cancelJob(web.db, { jobId, actor: admin })
    // these bars were never on a bar list (a raw fixture): freed as withdrawn, not available
    expect(await barsOf()).toEqual([
      { status: 'withdrawn', order_id: null },
      { status: 'withdrawn', order_id: null },
    ])
  })
})
