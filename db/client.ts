import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import * as schema from './schema'

export type Schema = typeof schema
/** what drizzle() returns: the ORM, and `$client`, its postgres.js pool (for a named prepared statement) */
export type Db = PostgresJsDatabase<Schema> & { $client: postgres.Sql }
/** A Drizzle transaction, for operations that must join the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either the database or a transaction in progress. */
export type DbOrTx = Db | Tx

export type CreateDbParameters = {
  url: string
  max?: number
  /** application_name, shown in pg_stat_activity */
  name?: string
  /**
   * Sets mintdesk.require_mint_limits on every connection: public.check_mint_controls then
   * refuses (SQLSTATE MDL01) while either mint limit is unset. The production worker's pool.
   */
  requireMintLimits?: boolean
}

export type DbClient = { db: Db; sql: postgres.Sql; close: () => Promise<void> }

export function createDb({ url, max = 10, name = 'mintdesk', requireMintLimits }: CreateDbParameters): DbClient {
  const sql = postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: name, ...(requireMintLimits ? { 'mintdesk.require_mint_limits': 'on' } : {}) },
    // bigint columns come back as bigint, never as a lossy number
    types: { bigint: postgres.BigInt },
    // seconds before a connection that failed is tried again. postgres.js's default grows as
    // 3^failures/100 up to 20 s, shared by the pool: after a database restart of a few
    // seconds every query then waited 10-20 s for its connection (tests/attack/postgresRestart.int.test.ts).
    // Capped at 1 s: while the database is down a request fails fast (5xx, /api/ready 503),
    // and it is used again within a second of coming back.
    backoff: (failures: number) => Math.min(0.05 * 2 ** failures, 1),
  })
  const db = drizzle(sql, { schema })
  return { db, sql, close: () => sql.end({ timeout: 5 }) }
}
