import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { latestFeeEventSql } from '@/lib/jobs/latestFeeEventSql'
import { type RecordJobEventParameters, recordJobEvent } from '@/lib/jobs/recordJobEvent'

export type RecordFeeCappedParameters = Omit<RecordJobEventParameters, 'event' | 'orderId'> & { orderId: string }

/**
 * The 'fee_capped' event of an order the fee ceiling holds back, once per wait: not again
 * while it is still the order's newest fee event (a look every few seconds would bury the
 * timeline). The worker's log has every look. Call it under the order's row lock. Returns
 * whether an event was written.
 */
export async function recordFeeCapped(tx: DbOrTx, p: RecordFeeCappedParameters): Promise<boolean> {
  const [row] = await tx.execute<{ event: string | null }>(
    sql`select ${latestFeeEventSql(sql`${p.orderId}::uuid`)} as event`,
  )
  if (row?.event === 'fee_capped') return false
  await recordJobEvent(tx, { ...p, event: 'fee_capped' })
  return true
}
