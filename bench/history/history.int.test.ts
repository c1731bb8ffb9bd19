import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyAuditChain } from '@/cli/verifyAuditChain'
import { createDb, type DbClient } from '@/db/client'
import { readAuditChainRows } from '@/lib/audit/readAuditChainRows'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { historyRoutes } from './historyRoutes'
import { explainRoute } from './runHistoryQueries'
import { HISTORY_VOLUME } from './seed/historyVolume'
import { type SeedYearOfHistoryReturnType, seedYearOfHistory } from './seedYearOfHistory'

const SCALE = 0.001
/** the tables that hold a year's volume: no route may read one of them whole */
const BIG_TABLES = [
  'job_events',
  'job_records',
  'mint_orders',
  'audit_log',
  'webhook_deliveries',
  'chain_txs',
  'vault_bars',
]

/**
 * The history bench's short form: a thousandth of a year seeded, its shapes checked, every measured route's answer
 * checked on it through the web's own role, and each route's plans taken with sequential scans priced out
 * (enable_seqscan off): at this size the planner would rightly read a small table whole, so what is checked is that
 * an index exists that serves the query at a year's size, not how long it takes.
 */
describe('a year of history, a thousandth of it', () => {
  let t: TestDatabase
  let owner: postgres.Sql
  let web: DbClient
  let seed: SeedYearOfHistoryReturnType

  beforeAll(async () => {
    t = await createTestDatabase()
    owner = postgres(t.url, { max: 2, onnotice: () => {} })
    seed = await seedYearOfHistory({ sql: owner, scale: SCALE })
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'history-test-web' })
  }, 120_000)
  afterAll(async () => {
    await web?.close()
    await owner?.end({ timeout: 5 })
    await t?.drop()
  })

  it('seeds the year in its shapes: orders in every status, ten events each, the volumes scaled', async () => {
    const orders = HISTORY_VOLUME.orders * SCALE
    expect(seed.counts.mint_orders).toBe(orders)
    expect(seed.counts.audit_log).toBe(HISTORY_VOLUME.auditRows * SCALE)
    expect(seed.counts.vault_bars).toBe(HISTORY_VOLUME.bars * SCALE)
    expect(seed.counts.job_events).toBeGreaterThan(orders * 9)
    expect(seed.counts.job_events).toBeLessThanOrEqual(orders * HISTORY_VOLUME.jobEventsPerOrder)
    const statuses = Object.fromEntries(
      (
        await owner<
          { status: string; n: number }[]
        >`select status::text, count(*)::int as n from mint_orders group by 1`
      ).map((r) => [r.status, r.n]),
    )
    expect(statuses.confirmed).toBeGreaterThan(orders * 0.9)
    for (const s of ['failed', 'pending', 'submitted', 'awaiting_approval']) expect(statuses[s]).toBeGreaterThan(0)
    // failed orders carry the pipeline's error texts, in their timelines too
    const [failed] = await owner<{ n: number }[]>`
      select count(*)::int as n from mint_orders o
      where o.status = 'failed' and o.failure_reason like '%Error:%'
        and exists (select 1 from job_events e where e.order_id = o.id and e.event = 'failed' and e.error is not null)`
    expect(failed?.n).toBe(statuses.failed)
    // the year is spread over twelve months
    const [months] = await owner<{ n: number }[]>`
      select count(distinct date_trunc('month', at))::int as n from job_events`
    expect(months?.n).toBeGreaterThanOrEqual(12)
    const bars = Object.fromEntries(
      (
        await owner<{ status: string; n: number }[]>`select status::text, count(*)::int as n from vault_bars group by 1`
      ).map((r) => [r.status, r.n]),
    )
    expect(bars.backing).toBeGreaterThan((HISTORY_VOLUME.bars * SCALE) / 2)
    for (const s of ['available', 'redeemed', 'reserved']) expect(bars[s]).toBeGreaterThan(0)
    // every redeemed bar's redemption burned it, and every backing bar backs a confirmed order
    const [orphans] = await owner<{ n: number }[]>`
      select count(*)::int as n from vault_bars b left join mint_orders o on o.id = b.order_id
      left join redemptions r on r.id = b.redemption_id
      where (b.status = 'backing' and o.status is distinct from 'confirmed')
        or (b.status = 'redeemed' and r.status is distinct from 'burned')`
    expect(orphans?.n).toBe(0)
    // the dead letters are live in graphile-worker, attempts used up
    const [dead] = await owner<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs where attempts >= max_attempts`
    expect(dead?.n).toBeGreaterThan(0)
  })

  it('chains the audit rows as the verifier expects', async () => {
    const walk = await verifyAuditChain(readAuditChainRows(owner, { batchSize: 500 }))
    expect(walk.broken).toBeNull()
    expect(walk.rows).toBe(HISTORY_VOLUME.auditRows * SCALE)
  })

  it('every measured route answers, on the web role, what the seeded data holds', async () => {
    for (const route of historyRoutes(seed.samples)) {
      const answer = await route.call(web.db, 0)
      expect({ route: route.name, right: route.check(answer) }).toEqual({ route: route.name, right: true })
    }
  })

  it('no route reads a big table whole when an index can serve it', async () => {
    for (const route of historyRoutes(seed.samples)) {
      const plans = await explainRoute({ url: t.url, route, enableSeqscan: false })
      expect(plans.length).toBeGreaterThan(0)
      const whole = BIG_TABLES.filter((table) => plans.some((plan) => new RegExp(`Seq Scan on ${table}\\b`).test(plan)))
      expect({ route: route.name, whole }).toEqual({ route: route.name, whole: [] })
    }
  })

  it('the searches keep their year-sized shapes: newest matches first, matches before the sort', async () => {
    const routes = historyRoutes(seed.samples)
    const plansOf = async (name: string) => {
      const route = routes.find((r) => r.name === name)
      if (!route) throw new Error(`no route ${name}`)
      return (await explainRoute({ url: t.url, route, enableSeqscan: false })).join('\n')
    }
    // the jobs search by error text: the matching jobs deduplicated on ordered input (never hashed, which gathered
    // every match before the newest page), read through the errored rows' or the trigram indexes
    const errorText = await plansOf('GET /api/admin/jobs?q=<error text>')
    expect(errorText).not.toMatch(/HashAggregate[^\n]*\n[^\n]*Group Key: r2\.job_id/)
    expect(errorText).toMatch(/job_records_errored_idx|job_records_last_error_trgm_idx/)
    expect(errorText).toMatch(/job_events_errored_job_idx|job_events_error_trgm_idx/)
    // the bars search by serial: the trigram index finds the bars, then they are sorted (no walk of the list's order)
    const serial = await plansOf('GET /api/vault/bars?q=<serial>')
    expect(serial).toContain('vault_bars_serial_key_trgm_idx')
    expect(serial).not.toContain('vault_bars_vault_keys_idx')
    // the reserves: the backing from its running total, the free totals from the status index, the in-flight total
    // through indexes, neither the bars nor the orders read whole. Which index serves the reserved bars depends on
    // the scale (a thousandth holds a handful: the status index); at a year's size both reads are index-only
    // (vault_bars_reserved_order_idx, mint_orders_unconfirmed_status_idx: the plans in docs/benchmarks.md).
    const reserves = await plansOf('GET /api/reserves (database part)')
    expect(reserves).toContain('vault_backing_deltas')
    expect(reserves).toContain('vault_bars_status_fine_oz_idx')
    expect(reserves).not.toMatch(/Seq Scan on (vault_bars|mint_orders)\b/)
  })
})
