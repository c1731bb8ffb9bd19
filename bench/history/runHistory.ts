import postgres from 'postgres'
import { databaseUrlAs } from '@/scripts/stack/databaseUrlAs'
import { type RouteMeasure, runHistoryQueries } from './runHistoryQueries'
import { HISTORY_TABLES } from './seed/historyVolume'
import { type HistorySamples, readHistorySamples } from './seed/readHistorySamples'
import { seedYearOfHistory } from './seedYearOfHistory'

export type RunHistoryParameters = {
  /** the database owner's (a superuser's) URL of a migrated database, empty or seeded by an earlier run */
  databaseAdminUrl: string
  /** 1 = a year of a busy desk (HISTORY_VOLUME, bench/history/seed/historyVolume.ts) */
  scale: number
  log: (line: string) => void
  /** the web role's URL; by default the admin URL as mintdesk_web with the dev password */
  webDatabaseUrl?: string
  /** timed calls per route (30 by default) */
  iterations?: number
  /** take the plans for the report (true by default) */
  explain?: boolean
}

export type HistoryResult = {
  scale: number
  /** rows per table as measured */
  counts: Record<string, number>
  /** the seed's seconds, or null when the database was seeded by an earlier run */
  seedSeconds: number | null
  /** when the year was seeded: its last order is an hour before (seedYearOfHistory), ISO 8601 */
  seededAt: string | null
  /** the data directory whose seed this run reused (runHistoryOnDataDir), when it did */
  reusedDataDir?: string
  routes: RouteMeasure[]
  samples: HistorySamples
}

/**
 * The history bench: a year of history seeded (unless the database already holds it), then every admin list and
 * search, the job and order pages, the dashboard, the reserves API and the public lookup measured through the web's
 * own data functions (runHistoryQueries), with their plans. The report's section: renderHistory(result), held to
 * historyTargets(result).
 */
export async function runHistory(p: RunHistoryParameters): Promise<HistoryResult> {
  const sql = postgres(p.databaseAdminUrl, { max: 2, onnotice: () => {} })
  try {
    const [seeded] = await sql<{ n: string }[]>`select count(*)::text as n from mint_orders`
    let seedSeconds: number | null = null
    let samples: HistorySamples
    if (Number(seeded?.n ?? 0) === 0) {
      p.log(`history: seeding a year at scale ${p.scale}`)
      const seed = await seedYearOfHistory({ sql, scale: p.scale, log: p.log })
      seedSeconds = seed.seconds
      samples = seed.samples
    } else {
      p.log('history: the database holds a seeded year already; measuring it')
      samples = await readHistorySamples(sql)
    }
    // the seed writes the year's orders up to an hour before it ran
    const [end] = await sql<{ at: string | null }[]>`
      select to_char((max(created_at) + interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as at
      from mint_orders`
    const counts: Record<string, number> = {}
    for (const table of HISTORY_TABLES) {
      // the planner's estimate: exact counts of ten million rows cost a minute each run
      const [row] = await sql<{ n: string }[]>`
        select greatest(reltuples, 0)::bigint::text as n from pg_class where oid = ${`public.${table}`}::regclass`
      counts[table] = Number(row?.n ?? 0)
    }
    const routes = await runHistoryQueries({
      webDatabaseUrl: p.webDatabaseUrl ?? databaseUrlAs(p.databaseAdminUrl, { role: 'web' }),
      databaseAdminUrl: p.databaseAdminUrl,
      samples,
      iterations: p.iterations,
      explain: p.explain ?? true,
      log: p.log,
    })
    return { scale: p.scale, counts, seedSeconds, seededAt: end?.at ?? null, routes, samples }
  } finally {
    await sql.end({ timeout: 5 })
  }
}
