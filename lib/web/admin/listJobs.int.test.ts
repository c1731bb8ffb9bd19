import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, addPlainJob, completeJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { listJobs } from './listJobs'

describe('listJobs', () => {
  let t: TestDatabase
  const ids: Record<string, bigint> = {}
  let orderA: { id: string; to: string }
  let txHash: string | null

  beforeAll(async () => {
    t = await createTestDatabase()
    const user = await insertUser(t.db)
    orderA = await insertOrder(t.db, { requestedBy: user.id, to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })
    const orderB = await insertOrder(t.db, { requestedBy: user.id })
    const orderC = await insertOrder(t.db, { requestedBy: user.id })
    const orderD = await insertOrder(t.db, { requestedBy: user.id })
    const signer = await insertSigner(t.db)

    ids.done = await addMintJob(t.db, { orderId: orderA.id })
    await completeJob(t.db, ids.done)
    ids.dead = await addMintJob(t.db, { orderId: orderB.id })
    await setJobState(t.db, ids.dead, 'dead', {
      error: 'ContractFunctionRevertedError: AccountFrozen(0x7099)\n    at simulate (worker/tasks/mintSend.ts:10:5)',
    })
    ids.running = await addMintJob(t.db, { orderId: orderC.id })
    await setJobState(t.db, ids.running, 'running')
    ids.retrying = await addMintJob(t.db, { orderId: orderD.id, task: 'order_confirm' })
    await setJobState(t.db, ids.retrying, 'retrying', { error: 'HttpRequestError: fetch failed' })
    ids.scheduled = await addPlainJob(t.db, { task: 'nonce_health', runAt: new Date(Date.now() + 3_600_000) })
    ids.queued = await addPlainJob(t.db, { task: 'nonce_health' })
    // a job added straight through graphile-worker, without a history row
    const [bare] = await t.db.execute<{ id: bigint }>(
      sql`select id from graphile_worker.add_job('nonce_health', '{}'::json)`,
    )
    ids.bare = BigInt(bare!.id)
    txHash = await reserveNonce(t.db, { signer, nonce: 0n, orderId: orderA.id, signed: true })
    await recordJobEvent(t.db, {
      event: 'failed',
      task: 'mint_send',
      jobId: ids.done,
      orderId: orderA.id,
      error: 'Error: nonce too low\n  at x',
    })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('lists every job newest first with its derived state', async () => {
    const { items, nextCursor } = await listJobs(t.db)
    expect(nextCursor).toBeNull()
    const byId = Object.fromEntries(items.map((j) => [j.id, j.state]))
    expect(byId).toEqual({
      [ids.done!.toString()]: 'done',
      [ids.dead!.toString()]: 'dead',
      [ids.running!.toString()]: 'running',
      [ids.retrying!.toString()]: 'retrying',
      [ids.scheduled!.toString()]: 'scheduled',
      [ids.queued!.toString()]: 'queued',
      [ids.bare!.toString()]: 'queued',
    })
    const order = items.map((j) => BigInt(j.id))
    expect(order).toEqual([...order].sort((a, b) => (a > b ? -1 : 1)))
    const dead = items.find((j) => j.id === ids.dead!.toString())!
    expect(dead).toMatchObject({
      task: 'mint_send',
      attempts: 5,
      maxAttempts: 5,
      order: { status: 'pending', amount: '401.084' },
    })
    expect(dead.lastError).toContain('AccountFrozen')
  })

  it('filters by each state', async () => {
    for (const state of ['done', 'dead', 'running', 'retrying', 'scheduled'] as const) {
      const { items } = await listJobs(t.db, { state })
      expect(items.map((j) => j.id)).toEqual([ids[state]!.toString()])
      expect(items[0]!.state).toBe(state)
    }
    const queued = await listJobs(t.db, { state: 'queued' })
    expect(queued.items.map((j) => j.id)).toEqual([ids.bare!.toString(), ids.queued!.toString()])
    expect((await listJobs(t.db, { state: 'cancelled' })).items).toEqual([])
  })

  it('filters by task and state together', async () => {
    const { items } = await listJobs(t.db, { task: 'nonce_health' })
    expect(items).toHaveLength(3)
    expect((await listJobs(t.db, { task: 'mint_send', state: 'dead' })).items.map((j) => j.id)).toEqual([
      ids.dead!.toString(),
    ])
  })

  it('finds jobs by order id, recipient, tx hash, job id and error text', async () => {
    expect((await listJobs(t.db, { q: orderA.id })).items.map((j) => j.id)).toEqual([ids.done!.toString()])
    expect((await listJobs(t.db, { q: orderA.to.toLowerCase() })).items.map((j) => j.id)).toEqual([
      ids.done!.toString(),
    ])
    expect((await listJobs(t.db, { q: txHash! })).items.map((j) => j.id)).toEqual([ids.done!.toString()])
    expect((await listJobs(t.db, { q: ids.retrying!.toString() })).items.map((j) => j.id)).toEqual([
      ids.retrying!.toString(),
    ])
    expect((await listJobs(t.db, { q: 'accountfrozen' })).items.map((j) => j.id)).toEqual([ids.dead!.toString()])
    // an error from an earlier attempt, kept only in the timeline
    expect((await listJobs(t.db, { q: 'nonce too low' })).items.map((j) => j.id)).toEqual([ids.done!.toString()])
    expect((await listJobs(t.db, { q: 'fetch failed', state: 'retrying' })).items.map((j) => j.id)).toEqual([
      ids.retrying!.toString(),
    ])
    expect((await listJobs(t.db, { q: '100%_x' })).items).toEqual([])
  })

  it('finds jobs by the start of an order id (as the tables show it), of a recipient and of a tx hash', async () => {
    const done = [ids.done!.toString()]
    expect((await listJobs(t.db, { q: orderA.id.slice(0, 8) })).items.map((j) => j.id)).toEqual(done)
    expect((await listJobs(t.db, { q: orderA.id.slice(0, 13).toUpperCase() })).items.map((j) => j.id)).toEqual(done)
    expect((await listJobs(t.db, { q: orderA.to.slice(0, 10) })).items.map((j) => j.id)).toEqual(done)
    expect((await listJobs(t.db, { q: txHash!.slice(0, 12) })).items.map((j) => j.id)).toEqual(done)
    // a start that is no order's: nothing
    const other = orderA.id.startsWith('f') ? '00000000' : 'ffffffff'
    expect((await listJobs(t.db, { q: other })).items).toEqual([])
  })

  it('pages with a keyset cursor without gaps or repeats', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const page = await listJobs(t.db, { limit: 2, cursor })
      seen.push(...page.items.map((j) => j.id))
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    const all = (await listJobs(t.db)).items.map((j) => j.id)
    expect(seen).toEqual(all)
  })

  it('refuses a forged cursor and too short a search text', async () => {
    await expect(listJobs(t.db, { cursor: 'nope!' })).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(listJobs(t.db, { q: 'ab' })).rejects.toMatchObject({ code: 'validation_failed' })
  })
})

// QUEUE_TRANSPORT=sqs: an SQS mint_send job is never in graphile-worker's
// table; the list shows the state of its history row (not 'done' for every row outside
// graphile's table), filtering by state included.
describe('listJobs with SQS jobs', () => {
  let t: TestDatabase
  const sqs: Record<string, bigint> = {}
  let graphileDone: bigint

  beforeAll(async () => {
    t = await createTestDatabase()
    const user = await insertUser(t.db)
    for (const state of ['queued', 'scheduled', 'running', 'retrying', 'dead', 'done', 'cancelled'] as const) {
      const order = await insertOrder(t.db, { requestedBy: user.id })
      const { jobId } = await t.db.transaction((tx) =>
        enqueueMintSend(tx, { transport: 'sqs', orderId: order.id, maxAttempts: 5, actor: 'test' }),
      )
      if (state !== 'queued')
        await t.db.execute(
          sql`update job_records set state = ${state}, attempts = 2 where job_id = ${jobId.toString()}::bigint`,
        )
      sqs[state] = jobId
    }
    const other = await insertOrder(t.db, { requestedBy: user.id })
    graphileDone = await addMintJob(t.db, { orderId: other.id })
    await completeJob(t.db, graphileDone)
  })
  afterAll(async () => {
    await t.drop()
  })

  it('shows each SQS job in the state of its history, and a finished graphile job as done', async () => {
    const { items } = await listJobs(t.db)
    expect(Object.fromEntries(items.map((j) => [j.id, j.state]))).toEqual({
      ...Object.fromEntries(Object.entries(sqs).map(([state, id]) => [id.toString(), state])),
      [graphileDone.toString()]: 'done',
    })
    expect(items.find((j) => j.id === sqs.running!.toString())).toMatchObject({
      task: 'mint_send',
      attempts: 2,
      maxAttempts: 5,
      finishedAt: null,
    })
  })

  it('filters SQS jobs by their state, alone and with the task', async () => {
    for (const state of ['queued', 'scheduled', 'running', 'retrying', 'dead', 'cancelled'] as const) {
      const { items } = await listJobs(t.db, { state })
      expect(items.map((j) => [j.id, j.state])).toEqual([[sqs[state]!.toString(), state]])
    }
    expect((await listJobs(t.db, { state: 'done' })).items.map((j) => j.id)).toEqual([
      graphileDone.toString(),
      sqs.done!.toString(),
    ])
    expect((await listJobs(t.db, { state: 'running', task: 'mint_send' })).items.map((j) => j.id)).toEqual([
      sqs.running!.toString(),
    ])
    expect((await listJobs(t.db, { state: 'running', task: 'nonce_health' })).items).toEqual([])
    expect((await listJobs(t.db, { state: 'retrying', q: sqs.retrying!.toString() })).items.map((j) => j.id)).toEqual([
      sqs.retrying!.toString(),
    ])
  })

  it('pages across graphile and SQS jobs of one state without gaps or repeats', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const page = await listJobs(t.db, { limit: 1, cursor })
      seen.push(...page.items.map((j) => j.id))
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    expect(seen).toEqual((await listJobs(t.db)).items.map((j) => j.id))
    expect(seen).toHaveLength(8)
  })
})

describe('listJobs: housekeeping hidden unless asked', () => {
  let t: TestDatabase
  const ids: Record<string, bigint> = {}

  beforeAll(async () => {
    t = await createTestDatabase()
    const user = await insertUser(t.db)
    const order = await insertOrder(t.db, { requestedBy: user.id })
    ids.mint = await addMintJob(t.db, { orderId: order.id })
    ids.healthDone = await addPlainJob(t.db, { task: 'nonce_health' })
    await completeJob(t.db, ids.healthDone)
    ids.healthQueued = await addPlainJob(t.db, { task: 'nonce_health' })
    ids.reserveScheduled = await addPlainJob(t.db, { task: 'reserve_check', runAt: new Date(Date.now() + 60_000) })
    ids.dispatchQueued = await addPlainJob(t.db, { task: 'notify_dispatch' })
    ids.healthDead = await addPlainJob(t.db, { task: 'nonce_health' })
    await setJobState(t.db, ids.healthDead, 'dead', { error: 'Error: rpc down' })
    ids.reserveRetrying = await addPlainJob(t.db, { task: 'reserve_check' })
    await setJobState(t.db, ids.reserveRetrying, 'retrying', { error: 'Error: rpc down' })
    ids.email = await addPlainJob(t.db, { task: 'email_send' })
  })
  afterAll(async () => {
    await t.drop()
  })

  const listed = async (p: Parameters<typeof listJobs>[1]) => (await listJobs(t.db, p)).items.map((j) => j.id).sort()
  const idsOf = (...names: string[]) => names.map((n) => ids[n]!.toString()).sort()

  it('hides the routine jobs of nonce_health, reserve_check and notify_dispatch; lists their retrying and dead ones', async () => {
    expect(await listed({ housekeeping: 'hide' })).toEqual(idsOf('mint', 'healthDead', 'reserveRetrying', 'email'))
    expect(await listed({ housekeeping: 'hide', state: 'queued' })).toEqual(idsOf('mint', 'email'))
    expect(await listed({ housekeeping: 'hide', state: 'scheduled' })).toEqual([])
    expect(await listed({ housekeeping: 'hide', state: 'done' })).toEqual([])
    expect(await listed({ housekeeping: 'hide', state: 'dead' })).toEqual(idsOf('healthDead'))
    expect(await listed({ housekeeping: 'hide', state: 'retrying' })).toEqual(idsOf('reserveRetrying'))
  })

  it('show (the default of the function) lists every job', async () => {
    const every = idsOf(...Object.keys(ids))
    expect(await listed({ housekeeping: 'show' })).toEqual(every)
    expect(await listed({})).toEqual(every)
    expect(await listed({ housekeeping: 'show', state: 'done' })).toEqual(idsOf('healthDone'))
  })

  it('a task filter naming a housekeeping task, or a job id, finds them even when hidden', async () => {
    expect(await listed({ housekeeping: 'hide', task: 'nonce_health' })).toEqual(
      idsOf('healthDone', 'healthQueued', 'healthDead'),
    )
    expect(await listed({ housekeeping: 'hide', q: ids.healthDone!.toString() })).toEqual(idsOf('healthDone'))
  })

  it('pages of the hidden list hold no gap or repeat', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 10; i++) {
      const page = await listJobs(t.db, { housekeeping: 'hide', limit: 1, cursor })
      seen.push(...page.items.map((j) => j.id))
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    expect(seen.sort()).toEqual(idsOf('mint', 'healthDead', 'reserveRetrying', 'email'))
  })
})
