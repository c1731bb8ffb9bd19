import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { countHistoryWindow, type MetricSample } from './countHistoryWindow'
import { foldHistoryMetrics } from './foldHistoryMetrics'
import { listHistoryTotals } from './listHistoryTotals'

/** samples as a sorted name{labels}=value list, to compare two ways of counting */
const table = (samples: MetricSample[]) =>
  samples
    .filter((s) => s.value !== 0)
    .map((s) => `${s.name}${s.labels}=${Math.round(s.value * 1e6) / 1e6}`)
    .sort()

describe('the history counters: folded totals + the recent tail = counting the whole history (decision 020)', () => {
  let t: TestDatabase
  let userId: string
  beforeAll(async () => {
    t = await createTestDatabase({ max: 4 })
    userId = (await insertUser(t.db)).id
  })
  afterAll(async () => {
    await t.drop()
  })

  /** one mint's story, its events `minutesAgo` back, a minute apart at most */
  async function mint(minutesAgo: number, events: string[]): Promise<void> {
    const { id } = await insertOrder(t.db, { requestedBy: userId, status: 'confirmed' })
    await t.db.execute(
      sql`update mint_orders set created_at = now() - ${minutesAgo} * interval '1 minute' where id = ${id}::uuid`,
    )
    let jobId = Math.floor(Math.random() * 1e9)
    for (const [i, event] of events.entries()) {
      if (event === 'enqueued') jobId++
      await t.db.execute(sql`
        insert into job_events (order_id, job_id, task, event, attempt, duration_ms, at)
        values (${id}::uuid, ${jobId}, 'mint_send', ${event}, ${event === 'started' ? 1 : null}, ${event === 'succeeded' || event === 'failed' ? 300 + i : null},
          now() - ${minutesAgo} * interval '1 minute' + ${i * 7} * interval '1 second')`)
    }
  }
  const story = ['enqueued', 'started', 'signed', 'broadcast', 'succeeded', 'mined', 'confirmed']

  it('agrees with a full count before any fold, after folds, and as new facts arrive', async () => {
    await mint(120, story)
    await mint(90, [...story, 'reorged', 'broadcast', 'confirmed'])
    await mint(45, ['enqueued', 'started', 'failed', 'started', 'dead'])
    await mint(3, story)
    const whole = async () => table(await countHistoryWindow(t.db, { from: null, to: null }))
    expect(table(await listHistoryTotals(t.db))).toEqual(await whole())

    // that read folded everything older than 10 minutes (the default lag): the 3-minutes-old mint is in the tail;
    // a cut never moves back
    expect(await foldHistoryMetrics(t.db, { lagMs: 30 * 60_000, minStepMs: 0 })).toBe(false)
    const cut = await t.db.execute<{ n: string }>(
      sql`select count(*)::text as n from metric_series where process = 'history'`,
    )
    expect(Number(cut[0]?.n)).toBeGreaterThan(5)
    expect(table(await listHistoryTotals(t.db))).toEqual(await whole())

    await mint(1, story)
    await mint(0, ['enqueued', 'started', 'signed', 'broadcast', 'succeeded'])
    expect(table(await listHistoryTotals(t.db))).toEqual(await whole())
    // counters only (the alarms' read): the same counters, folded part and tail, and no histogram sample
    const countersOnly = await listHistoryTotals(t.db, { histograms: false })
    expect(countersOnly.some((c) => /_(bucket|sum|count)$/.test(c.name))).toBe(false)
    const counters = (await whole()).filter((line) => !/_(bucket|sum|count)[{=]/.test(line))
    expect(counters.length).toBeGreaterThan(3)
    expect(table(countersOnly)).toEqual(counters)

    // the cut moves on: folding again counts nothing twice
    expect(await foldHistoryMetrics(t.db, { lagMs: 2 * 60_000, minStepMs: 0 })).toBe(true)
    expect(table(await listHistoryTotals(t.db))).toEqual(await whole())
    expect(await foldHistoryMetrics(t.db, { lagMs: 0, minStepMs: 0 })).toBe(true)
    expect(table(await listHistoryTotals(t.db))).toEqual(await whole())
    // too soon for another fold: nothing happens
    expect(await foldHistoryMetrics(t.db, { lagMs: 0, minStepMs: 60_000 })).toBe(false)

    const confirmed = (await listHistoryTotals(t.db)).find(
      (s) => s.name === 'mintdesk_orders_total' && s.labels === '{outcome="confirmed"}',
    )
    expect(confirmed?.value, 'the reorged order is confirmed once').toBe(4)
  })

  it('two folds at once: one folds, the other skips, nothing counted twice', async () => {
    // (recorded now: a fact is never recorded before a cut already
    // passed, save a transaction open for longer than the lag)
    await mint(0, story)
    const results = await Promise.all([
      foldHistoryMetrics(t.db, { lagMs: 0, minStepMs: 0 }),
      foldHistoryMetrics(t.db, { lagMs: 0, minStepMs: 0 }),
    ])
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1)
    expect(table(await listHistoryTotals(t.db))).toEqual(
      table(await countHistoryWindow(t.db, { from: null, to: null })),
    )
  })
})
