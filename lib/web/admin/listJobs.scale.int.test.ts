import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { addMintJob, setJobState } from '@/tests/helpers/jobs'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { buildListJobsQuery, type ListJobsParameters, listJobs } from './listJobs'

const HISTORY_ROWS = 100_000
/** generous: 2 shared CPU cores, a cold cache; the real figures are a few milliseconds */
const BOUND_MS = 1_500

/**
 * The jobs list at scale: 100k history rows and 200k timeline rows made in SQL
 * (generate_series), then every kind of list query must use an index (no sequential
 * scan of job_records) and answer within a generous bound, first page and deep pages.
 */
describe('listJobs at scale', () => {
  let t: TestDatabase
  let orderId: string

  beforeAll(async () => {
    t = await createTestDatabase()
    await t.db.execute(sql`
      insert into job_records (job_id, task, order_id, state, attempts, max_attempts, last_error, payload, created_at, updated_at, finished_at)
      select g,
        (array['mint_send','order_confirm','nonce_health'])[1 + g % 3],
        null,
        case when g % 50 = 0 then 'cancelled' else 'done' end,
        1 + g % 3, 5,
        case when g % 20 = 0 then 'HttpRequestError: request ' || g || ' timed out' end,
        '{}'::jsonb,
        now() - make_interval(secs => ${HISTORY_ROWS} - g),
        now() - make_interval(secs => ${HISTORY_ROWS} - g),
        now() - make_interval(secs => ${HISTORY_ROWS} - g)
      from generate_series(1, ${HISTORY_ROWS}) g`)
    await t.db.execute(sql`
      insert into job_events (job_id, task, event, attempt, error, duration_ms, at)
      select g / 2,
        (array['mint_send','order_confirm','nonce_health'])[1 + (g / 2) % 3],
        case when g % 2 = 0 then 'enqueued' when g % 40 = 1 then 'failed' else 'succeeded' end,
        1,
        case when g % 40 = 1 then 'ContractFunctionExecutionError: execution reverted #' || g end,
        case when g % 2 = 1 then 50 + g % 500 end,
        now() - make_interval(secs => ${HISTORY_ROWS} - g / 2)
      from generate_series(2, ${HISTORY_ROWS * 2 + 1}) g`)
    await t.db.execute(
      sql`update job_events set error = 'needle: AccountFrozen(0xdead)' where id = (select max(id) / 2 from job_events)`,
    )
    // graphile-worker's identity must start past the history ids, as in a real database
    await t.db.execute(
      sql`select setval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'), ${HISTORY_ROWS + 10})`,
    )
    const user = await insertUser(t.db)
    const order = await insertOrder(t.db, { requestedBy: user.id })
    orderId = order.id
    const live = await addMintJob(t.db, { orderId })
    await setJobState(t.db, live, 'dead', { error: 'Error: still failing' })
    // 1% of the history were SQS jobs (an outbox row each), a tenth of them still running
    await t.db.execute(sql`
      insert into sqs_outbox (job_id, task, order_id, payload, sent_at)
      select g, 'mint_send', ${orderId}::uuid, '{}'::jsonb, now() from generate_series(7, ${HISTORY_ROWS}, 100) g`)
    await t.db.execute(sql`update job_records set state = 'running', finished_at = null where job_id % 1000 = 7`)
    // 100k orders, each with a recipient of its own: the prefix searches look through them
    await t.db.execute(sql`
      insert into mint_orders (to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by)
      select '0x' || md5(g::text) || substr(md5((g + 1)::text), 1, 8), 1000000000000000000, 'pending', 'LDN-1',
        'VR-SCALE-' || g, md5(g::text) || md5((g + 2)::text), ${user.id}::uuid
      from generate_series(1, ${HISTORY_ROWS}) g`)
    await t.db.execute(sql`analyze job_records; analyze job_events; analyze sqs_outbox; analyze mint_orders`)
  }, 120_000)
  afterAll(async () => {
    await t.drop()
  })

  const cases: [string, ListJobsParameters][] = [
    ['first page, any state', {}],
    ['first page, housekeeping hidden (as the API defaults)', { housekeeping: 'hide' }],
    ['done, housekeeping hidden', { state: 'done', housekeeping: 'hide' }],
    ['a deep page, housekeeping hidden', { housekeeping: 'hide', cursor: Buffer.from('j:1234').toString('base64url') }],
    ['done', { state: 'done' }],
    ['cancelled', { state: 'cancelled' }],
    ['one task', { task: 'order_confirm' }],
    ['one task, done', { task: 'nonce_health', state: 'done' }],
    ['dead letters', { state: 'dead' }],
    ['running (SQS jobs in their history)', { state: 'running' }],
    ['a deep page', { cursor: Buffer.from('j:1234').toString('base64url') }],
    ['an order id', { q: '00000000-0000-4000-8000-000000000000' }],
    ['a rare error text', { q: 'AccountFrozen' }],
    ['a job id', { q: '77777' }],
    ['the start of an order id, as the tables show it', { q: '0981336b' }],
    ['the start of an address or a transaction hash', { q: '0x7099' }],
  ]

  it.each(cases)('%s: no sequential scan of the history, answers within the bound', async (_name, params) => {
    const plan = await explain(t, buildListJobsQuery(params).query)
    expect(plan).not.toMatch(/Seq Scan on job_records/)
    expect(plan).not.toMatch(/Seq Scan on job_events/)
    await expectWithinBound(params)
  })

  it('the start of an address reads the orders through an index, not row by row', async () => {
    const plan = await explain(t, buildListJobsQuery({ q: '0x7099' }).query)
    expect(plan).not.toMatch(/Seq Scan on mint_orders/)
  })

  // A text found in 5% of the history is cheaper to find by reading the table than
  // through the trigram index, and the planner knows it: only the time bound holds here.
  it('a common error text answers within the bound', async () => {
    const page = await expectWithinBound({ q: 'timed out' })
    expect(page.items).toHaveLength(50)
    for (const job of page.items) expect(job.lastError).toMatch(/timed out/)
  })

  async function expectWithinBound(params: ListJobsParameters) {
    const started = performance.now()
    const page = await listJobs(t.db, params)
    const ms = performance.now() - started
    expect(ms).toBeLessThan(BOUND_MS)
    if (params.q === 'AccountFrozen') expect(page.items).toHaveLength(1)
    if (params.state === 'dead') expect(page.items.map((j) => j.orderId)).toEqual([orderId])
    if (params.state === 'running')
      for (const job of page.items) expect([job.state, BigInt(job.id) % 1000n]).toEqual(['running', 7n])
    if (params.q === '77777') expect(page.items.map((j) => j.id)).toEqual(['77777'])
    if (!params.q && params.state !== 'dead') expect(page.items).toHaveLength(50)
    return page
  }

  it('walks 20 pages of done jobs in order, each within the bound', async () => {
    let cursor: string | undefined
    let previous = BigInt(Number.MAX_SAFE_INTEGER)
    for (let i = 0; i < 20; i++) {
      const started = performance.now()
      const page = await listJobs(t.db, { state: 'done', cursor, limit: 100 })
      expect(performance.now() - started).toBeLessThan(BOUND_MS)
      for (const job of page.items) {
        expect(BigInt(job.id) < previous).toBe(true)
        previous = BigInt(job.id)
        expect(job.state).toBe('done')
      }
      // a running SQS job is not done
      expect(page.items.some((j) => BigInt(j.id) % 1000n === 7n)).toBe(false)
      cursor = page.nextCursor ?? undefined
    }
  })
})

async function explain(t: TestDatabase, query: SQL): Promise<string> {
  const { sql: text, params } = new PgDialect().sqlToQuery(query)
  const rows = await t.sql.unsafe<{ 'QUERY PLAN': string }[]>(`explain ${text}`, params as never[])
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}
