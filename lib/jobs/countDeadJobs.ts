import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { deadJobSql } from '@/lib/jobs/liveStateSql'

/** The exact number of dead letters (not locked, attempts used up), read straight from graphile-worker's jobs table. */
export async function countDeadJobs(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from graphile_worker._private_jobs j where ${deadJobSql('j')}`)
  return row?.n ?? 0
}
