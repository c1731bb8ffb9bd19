import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

/**
 * Every task identifier graphile-worker has seen (its `_private_tasks`): a task with no
 * job right now still gets a row on the metrics page.
 */
export async function listTaskNames(db: DbOrTx): Promise<string[]> {
  const rows = await db.execute<{ task: string }>(sql`select identifier as task from graphile_worker._private_tasks`)
  return rows.map((r) => r.task)
}
