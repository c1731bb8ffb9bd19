import { type SQL, sql } from 'drizzle-orm'
import { TASK } from './jobKeys'

/**
 * A condition: the order (a uuid expression, e.g. `sn.order_id`) has a mint_confirm job
 * with attempts left in graphile-worker's queue, found by its job key (the format of
 * mintConfirmJobKey, built in SQL): that job owns the order's nonce, so the nonce health
 * check leaves the nonce alone.
 */
export function hasLiveConfirmJobSql(orderId: SQL): SQL {
  return sql`exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = ${`${TASK.mintConfirm}:`} || ${orderId}::text and j.attempts < j.max_attempts
  )`
}
