import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { payloadOrderIdSql } from '@/lib/jobs/payloadOrderIdSql'

export type ReadOrderIdOfJobParameters = { jobId: bigint }

/**
 * The order a job belongs to: its history row (job_records), else the `orderId` of its
 * payload while graphile-worker still holds it; null for a job without an order (or an
 * unknown one). Read without a lock.
 */
export async function readOrderIdOfJob(db: DbOrTx, { jobId }: ReadOrderIdOfJobParameters): Promise<string | null> {
  const rows = await db.execute<{ order_id: string | null }>(sql`
    select coalesce(
      (select r.order_id from job_records r where r.job_id = ${jobId.toString()}::bigint),
      (select ${payloadOrderIdSql('j')} from graphile_worker._private_jobs j where j.id = ${jobId.toString()}::bigint)
    )::text as order_id`)
  return rows[0]?.order_id ?? null
}
