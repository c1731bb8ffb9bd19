import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

/**
 * The trace of an order: the `traceparent` its first job carried (the intake's mint_send,
 * kept in job_records.payload). For a job whose own payload has none (an older job, one
 * re-added without it), so the worker's spans still join the mint's trace. Read only when
 * tracing is on.
 */
export async function readOrderTraceparent(db: DbOrTx, { orderId }: { orderId: string }): Promise<string | undefined> {
  const rows = await db.execute<{ traceparent: string }>(sql`
    select payload->>'traceparent' as traceparent from job_records
    where order_id = ${orderId}::uuid and payload ? 'traceparent'
    order by job_id limit 1`)
  return rows[0]?.traceparent ?? undefined
}
