import type postgres from 'postgres'
import { HISTORY_TABLES, historySizes, type SeedPart } from './seed/historyVolume'
import { type HistorySamples, readHistorySamples } from './seed/readHistorySamples'
import { seedAudit } from './seed/seedAudit'
import { seedBars } from './seed/seedBars'
import { seedJobs } from './seed/seedJobs'
import { seedLiveJobs } from './seed/seedLiveJobs'
import { seedOrders } from './seed/seedOrders'

export type SeedYearOfHistoryParameters = {
  /** the database owner's connection (a superuser: the bulk tables are written with triggers and checks of
   * foreign keys off, session_replication_role = replica, every reference made right by construction) */
  sql: postgres.Sql
  /** 1 = a year of a busy desk (HISTORY_VOLUME); 0.001 = a thousandth of it, for a test */
  scale: number
  log?: (line: string) => void
}

export type SeedYearOfHistoryReturnType = {
  scale: number
  /** rows per table after the seed */
  counts: Record<string, number>
  seconds: number
  /** ids the measured run reads: an order of each kind, a job, a recipient, a tx hash, a bar serial, a webhook */
  samples: HistorySamples
}

/**
 * A year of a busy desk written straight into the database, set-based (generate_series), so a million orders and
 * ten million timeline events take minutes: orders across the year in every status (most confirmed, some failed
 * with the error texts the pipeline writes, a live tail awaiting approval, pending, submitted), each with its two
 * jobs (mint_send, order_confirm) in the history and about ten timeline events, its signed transaction and nonce,
 * its notification and webhook delivery; bars in four vaults (most backing confirmed orders, some free, a few
 * redeemed by burned redemptions); the dead letters of the last weeks live in graphile-worker's table; the audit
 * log inserted through its chaining trigger, in statements of 100k rows, so `npm run audit:verify` accepts it.
 * Ends with VACUUM ANALYZE of the tables written. Run it once, on an empty migrated database.
 */
export async function seedYearOfHistory(p: SeedYearOfHistoryParameters): Promise<SeedYearOfHistoryReturnType> {
  const log = p.log ?? (() => {})
  const started = performance.now()
  const sql = p.sql
  const sizes = historySizes(p.scale)
  const step: SeedPart['step'] = async (what, run) => {
    const t = performance.now()
    await run()
    log(`history seed: ${what} (${((performance.now() - t) / 1000).toFixed(1)} s)`)
  }

  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`
    await tx`set local synchronous_commit = off`
    const part: SeedPart = { sql: tx, sizes, step }
    await seedOrders(part)
    await seedJobs(part)
    await seedBars(part)
  })
  // outside the replica session: the running total, graphile-worker's own function, the audit chain's trigger
  await seedLiveJobs({ sql, sizes, step })
  await seedAudit({ sql, sizes, step })
  await step('vacuum analyze', async () => {
    for (const table of [...HISTORY_TABLES, 'users', 'deposits', 'redemption_bars', 'vault_backing_deltas'])
      await sql.unsafe(`vacuum (analyze) ${table}`)
    await sql.unsafe('analyze graphile_worker._private_jobs')
  })

  const counts: Record<string, number> = {}
  for (const table of HISTORY_TABLES) {
    const [row] = await sql.unsafe<{ n: string }[]>(`select count(*)::text as n from ${table}`)
    counts[table] = Number(row?.n ?? 0)
  }
  const samples = await readHistorySamples(sql)
  return { scale: p.scale, counts, seconds: (performance.now() - started) / 1000, samples }
}
