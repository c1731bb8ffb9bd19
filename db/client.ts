import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import * as schema from './schema'

export type Schema = typeof schema
export type Db = PostgresJsDatabase<Schema>
/** A Drizzle transaction, for operations that must join the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either the database or a transaction in progress. */
export type DbOrTx = Db | Tx

export type CreateDbParameters = {
  url: string
  max?: number
  /** application_name, shown in pg_stat_activity */
  name?: string
}

export type DbClient = { db: Db; sql: postgres.Sql; close: () => Promise<void> }

export function createDb({ url, max = 10, name = 'mintdesk' }: CreateDbParameters): DbClient {
  const sql = postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: name },
    // bigint columns come back as bigint, never as a lossy number
    types: { bigint: postgres.BigInt },
  })
  const db = drizzle(sql, { schema })
  return { db, sql, close: () => sql.end({ timeout: 5 }) }
}
