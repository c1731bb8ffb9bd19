import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { createDb, type Db } from '@/db/client'
import * as schema from '@/db/schema'
import { type HistoryRoute, type HistoryRouteKind, historyRoutes } from './historyRoutes'
import type { HistorySamples } from './seed/readHistorySamples'

export type RunHistoryQueriesParameters = {
  /** the web's own connection (mintdesk_web): the reads run with its grants, as the routes do */
  webDatabaseUrl: string
  /** the owner's connection: the plans are taken through auto_explain, which only a superuser loads */
  databaseAdminUrl: string
  samples: HistorySamples
  /** timed calls per route after WARMUP untimed ones */
  iterations?: number
  /** also take each route's plans (EXPLAIN ANALYZE, BUFFERS) */
  explain?: boolean
  log?: (line: string) => void
}

export type RouteMeasure = {
  name: string
  kind: HistoryRouteKind
  calls: number
  p50Ms: number
  p95Ms: number
  maxMs: number
  /** the answer held what the seeded data should give (historyRoutes' check) */
  answered: boolean
  /** one plan per statement the route ran, as auto_explain wrote them (text, ANALYZE, BUFFERS) */
  plans: string[]
}

const WARMUP = 3
const ITERATIONS = 30

/**
 * The measured run: each route of historyRoutes called through its data function on the web's own connection,
 * WARMUP times untimed then `iterations` times one after another (the latency one admin sees, not a load test),
 * p50 / p95 / max of the timed calls. With `explain`, each route once more on one owner connection with
 * auto_explain on (every statement's plan with ANALYZE and BUFFERS, sent back as a notice), for the report.
 */
export async function runHistoryQueries(p: RunHistoryQueriesParameters): Promise<RouteMeasure[]> {
  const log = p.log ?? (() => {})
  const iterations = p.iterations ?? ITERATIONS
  const routes = historyRoutes(p.samples)
  const web = createDb({ url: p.webDatabaseUrl, max: 2, name: 'mintdesk-history-bench' })
  const out: RouteMeasure[] = []
  try {
    for (const route of routes) {
      let answered = true
      for (let i = 0; i < WARMUP; i++) answered = route.check(await route.call(web.db, i)) && answered
      const times: number[] = []
      for (let i = 0; i < iterations; i++) {
        const t = performance.now()
        await route.call(web.db, i)
        times.push(performance.now() - t)
      }
      const measure = {
        name: route.name,
        kind: route.kind,
        calls: iterations,
        p50Ms: percentile(times, 0.5),
        p95Ms: percentile(times, 0.95),
        maxMs: Math.max(...times),
        answered,
        plans: [],
      }
      log(`history: ${route.name}: p95 ${measure.p95Ms.toFixed(1)} ms${answered ? '' : ' (WRONG ANSWER)'}`)
      out.push(measure)
    }
  } finally {
    await web.close()
  }
  if (p.explain) {
    for (const [i, route] of routes.entries()) {
      const measure = out[i]
      if (measure) measure.plans = await explainRoute({ url: p.databaseAdminUrl, route, enableSeqscan: true })
    }
  }
  return out
}

export type ExplainRouteParameters = {
  url: string
  route: HistoryRoute
  /** false: `set enable_seqscan = off`, so a small table's plan shows the index the large one would use */
  enableSeqscan: boolean
  format?: 'text' | 'json'
}

/** Each statement a route runs, with its plan (auto_explain on one owner connection, ANALYZE and BUFFERS). */
export async function explainRoute(p: ExplainRouteParameters): Promise<string[]> {
  const plans: string[] = []
  const sql = postgres(p.url, {
    max: 1,
    types: { bigint: postgres.BigInt },
    onnotice: (notice) => {
      if (typeof notice.message === 'string' && /duration:/.test(notice.message)) plans.push(notice.message)
    },
  })
  try {
    await sql.unsafe(`load 'auto_explain'`)
    await sql.unsafe(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
      set auto_explain.log_buffers = on; set auto_explain.log_timing = on; set auto_explain.log_level = notice;
      set auto_explain.log_nested_statements = on; set auto_explain.log_format = ${p.format ?? 'text'};
      set client_min_messages = notice; set enable_seqscan = ${p.enableSeqscan ? 'on' : 'off'}`)
    const db: Db = drizzle(sql, { schema })
    await p.route.call(db, 0)
  } finally {
    await sql.end({ timeout: 5 })
  }
  return plans
}

export function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] ?? 0
}
