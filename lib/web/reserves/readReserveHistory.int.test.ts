import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { readReserveHistory } from './readReserveHistory'

// The chart of /reserves reads the reconciliation checks through readReserveHistory, as the web's own database role.

let t: TestDatabase
let web: TestDatabase['db'] | undefined
let closeWeb: () => Promise<void> = async () => {}

const OZ = 10n ** 18n

/** a check at `at`: supply and backing in whole oz */
async function check(p: { at: Date; supplyOz: bigint; backingOz: bigint; inFlightOz?: bigint }) {
  const inFlight = p.inFlightOz ?? 0n
  const shortfall = p.supplyOz > p.backingOz + inFlight ? (p.supplyOz - p.backingOz - inFlight) * OZ : 0n
  await t.db.execute(sql`
    insert into reserve_checks (at, block_number, total_supply_wei, backing_milli_oz, in_flight_milli_oz,
      available_milli_oz, missing_milli_oz, shortfall_wei, status)
    values (${p.at.toISOString()}::timestamptz, 1, ${(p.supplyOz * OZ).toString()}::numeric,
      ${(p.backingOz * 1000n).toString()}::bigint, ${(inFlight * 1000n).toString()}::bigint, 0, 0,
      ${shortfall.toString()}::numeric, ${shortfall > 0n ? 'shortfall' : 'covered'})`)
}

beforeAll(async () => {
  t = await createTestDatabase()
  const client = createDb({ url: t.roleUrl('web'), max: 1, name: 'reserve-history-as-web' })
  web = client.db
  closeWeb = () => client.close()
  // a day's window is 120 spans of 12 minutes, counted from the epoch: two checks 2 and 5 minutes into the span
  // that began 20 hours ago share it, the others do not
  const spanMs = 12 * 60_000
  const spanStart = Math.floor((Date.now() - 20 * 3_600_000) / spanMs) * spanMs
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000)
  await check({ at: ago(60 * 24 * 40), supplyOz: 10n, backingOz: 10n })
  await check({ at: new Date(spanStart + 2 * 60_000), supplyOz: 90n, backingOz: 90n })
  await check({ at: new Date(spanStart + 5 * 60_000), supplyOz: 100n, backingOz: 100n })
  await check({ at: ago(60 * 5), supplyOz: 500n, backingOz: 400n, inFlightOz: 100n })
  await check({ at: ago(30), supplyOz: 700n, backingOz: 600n })
}, 60_000)

afterAll(async () => {
  await closeWeb()
  await t?.drop()
})

describe('readReserveHistory', () => {
  it('gives the latest check of each span of the window, oldest first, in decimal ounces', async () => {
    if (!web) throw new Error('no web client')
    const day = await readReserveHistory(web, { days: 1 })
    expect(day.days).toBe(1)
    expect(day.points.map((p) => p.totalSupply)).toEqual(['100.000', '500.000', '700.000'])
    expect(day.points[1]).toMatchObject({ backingFineOz: '400.000', inFlightFineOz: '100.000', status: 'covered' })
    expect(day.points[2]).toMatchObject({ backingFineOz: '600.000', inFlightFineOz: '0.000', status: 'shortfall' })
    const times = day.points.map((p) => Date.parse(p.at))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(day.points[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it('a longer window reaches older checks; at most one point per span', async () => {
    if (!web) throw new Error('no web client')
    const month = await readReserveHistory(web, { days: 30 })
    expect(month.points.map((p) => p.totalSupply)).not.toContain('10.000')
    const year = await readReserveHistory(web, { days: 365 })
    expect(year.points[0]?.totalSupply).toBe('10.000')
    // a year's span is 73 hours: the four checks of the last 20 hours fall in one span or two, each giving its latest
    const supplies = year.points.map((p) => p.totalSupply)
    expect(supplies[0]).toBe('10.000')
    expect(supplies.at(-1)).toBe('700.000')
    expect(supplies.length).toBeGreaterThanOrEqual(2)
    expect(supplies.length).toBeLessThanOrEqual(3)
  })
})
