import { type SQL, sql } from 'drizzle-orm'

/**
 * SQL building blocks shared by the admin queries (raw SQL, as they join graphile-worker's
 * live jobs, which lib/jobs/liveJobsSql.ts reads: not part of the Drizzle schema).
 */

/** A timestamptz as an ISO 8601 string in UTC with milliseconds (`2026-01-02T03:04:05.678Z`), null stays null. */
export function isoSql(expr: SQL): SQL {
  return sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/** `%text%` for ILIKE, with the pattern characters of the text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
