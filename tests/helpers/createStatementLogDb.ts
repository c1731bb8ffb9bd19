import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { Db } from '@/db/client'
import * as schema from '@/db/schema'

export type CreateStatementLogDbParameters = {
  url: string
  /** connections of its own pool; 1 by default */
  max?: number
  /** application_name, shown in pg_stat_activity */
  name?: string
}

export type StatementLogDb = {
  db: Db
  /** every statement the pool sent so far, in order (its SQL text, parameters apart) */
  statements: () => readonly string[]
  close: () => Promise<void>
}

/**
 * TEST ONLY: a drizzle database on its own pool that logs the statements it sends
 * (postgres.js's debug hook: one call per query sent), to show a call's round trips or how
 * often it reads a table, against the real database.
 *
 *   const logged = createStatementLogDb({ url: t.roleUrl('web') })
 *   const before = logged.statements().length
 *   await addJobs(logged.db, jobs)
 *   expect(logged.statements().length - before).toBe(1)
 */
export function createStatementLogDb({ url, max = 1, name = 'statement-log' }: CreateStatementLogDbParameters) {
  const log: string[] = []
  const client = postgres(url, {
    max,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: { application_name: name },
    debug: (_connection, query) => log.push(query),
  })
  const logged: StatementLogDb = {
    db: drizzle(client, { schema }),
    statements: () => log,
    close: () => client.end({ timeout: 5 }),
  }
  return logged
}
