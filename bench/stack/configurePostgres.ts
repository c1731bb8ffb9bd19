import postgres from 'postgres'
import { startPostgres } from '../../scripts/stack/postgres'

export type ConfigurePostgresParameters = { dataDir: string }

/**
 * Before the stack starts its embedded Postgres on `dataDir`, this sets two server
 * settings that need a restart (ALTER SYSTEM, kept in the data folder's
 * postgresql.auto.conf):
 * - track_commit_timestamp = on: pg_xact_commit_timestamp(xmin) of the intake's
 *   'enqueued' event row is the exact commit time of the order-plus-job transaction,
 *   the start of the queue pickup measurement;
 * - pg_stat_statements preloaded: time per statement, the evidence for the intake notes.
 * Both cost little per commit/statement; the report says they were on.
 */
export async function configurePostgres({ dataDir }: ConfigurePostgresParameters): Promise<void> {
  const pg = await startPostgres({ dataDir, detached: true })
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  try {
    await sql`alter system set track_commit_timestamp = on`
    await sql`alter system set shared_preload_libraries = 'pg_stat_statements'`
  } finally {
    await sql.end({ timeout: 5 })
    await pg.stop()
  }
}
