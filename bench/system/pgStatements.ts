import type postgres from 'postgres'

export type StatementStat = { query: string; calls: number; totalMs: number; meanMs: number }

export type PgStatementsWindow = {
  /** statements by total execution time, biggest first */
  top: StatementStat[]
  /** statements by calls, most frequent first: the round trips */
  mostCalled: StatementStat[]
  /** execution time of every statement in the window (ms) */
  totalMs: number
  calls: number
}

/** Empties pg_stat_statements: what follows is one measured window. */
export async function resetPgStatements(sql: postgres.Sql): Promise<void> {
  await sql`select pg_stat_statements_reset()`
}

/**
 * What Postgres itself spent executing statements since the last reset (server-side
 * execution time: no network, no client), in the stack's database, the bench's own
 * pg_stat_statements queries left out.
 */
export async function readPgStatements(
  sql: postgres.Sql,
  { limit = 8 }: { limit?: number } = {},
): Promise<PgStatementsWindow> {
  const rows = await sql<{ query: string; calls: string; total: number; mean: number }[]>`
    select query, calls::text as calls, total_exec_time as total, mean_exec_time as mean
    from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())
      and query not ilike '%pg_stat_statements%'
    order by total_exec_time desc`
  const all = rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').trim(),
    calls: Number(r.calls),
    totalMs: r.total,
    meanMs: r.mean,
  }))
  return {
    top: all.slice(0, limit),
    mostCalled: [...all].sort((a, b) => b.calls - a.calls).slice(0, limit),
    totalMs: all.reduce((a, s) => a + s.totalMs, 0),
    calls: all.reduce((a, s) => a + s.calls, 0),
  }
}
