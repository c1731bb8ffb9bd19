import { type SQL, sql } from 'drizzle-orm'
import { TASK } from '@/lib/jobs/jobKeys'

/**
 * A condition: the order (a uuid expression, e.g. `sn.order_id`) has a mint_send job that
 * may still run, found by its job key (the format of mintSendJobKey, built in SQL): held
 * by a worker (a batch may be signing its nonce right now) or with attempts left. While
 * it exists, the order's reserved nonce is its to sign, not the nonce health check's to
 * release.
 */
export function hasLiveSendJobSql(orderId: SQL): SQL {
  return sql`exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = ${`${TASK.mintSend}:`} || ${orderId}::text and (j.locked_at is not null or j.attempts < j.max_attempts)
  )`
}
