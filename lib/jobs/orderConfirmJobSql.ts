import { type SQL, sql } from 'drizzle-orm'
import { TASK } from '@/lib/jobs/jobKeys'

/** which per-order order_confirm job counts: every one, one that still runs or will run, or a dead letter */
export type OrderConfirmJobState = 'any' | 'live' | 'dead'

/**
 * A condition: the order (a uuid expression, e.g. `o.id`) has an order_confirm job of its
 * own in graphile-worker's queue, found by its job key (the format of orderConfirmJobKey,
 * built in SQL). Such a job owns the order: the signer's confirmer leaves it alone.
 * `live`: held by a worker or attempts left; `dead`: a dead letter an admin must see.
 */
export function orderConfirmJobSql(orderId: SQL, state: OrderConfirmJobState): SQL {
  return orderJobSql(TASK.orderConfirm, orderId, state)
}

/** The same condition for the order's job of another mint task (its key `<task>:<orderId>`). */
export function orderJobSql(
  task: typeof TASK.orderConfirm | typeof TASK.mintSend,
  orderId: SQL,
  state: OrderConfirmJobState,
): SQL {
  const which =
    state === 'any'
      ? sql``
      : state === 'live'
        ? sql` and (j.locked_at is not null or j.attempts < j.max_attempts)`
        : sql` and j.locked_at is null and j.attempts >= j.max_attempts`
  return sql`exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = ${`${task}:`} || ${orderId}::text${which}
  )`
}

/**
 * A condition: the signer (an address expression) has a signer_confirm job that runs or
 * will run (held by a worker, or attempts left), by its job key (signerConfirmJobKey).
 */
export function liveConfirmerSql(signerAddress: SQL): SQL {
  return sql`exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = ${`${TASK.signerConfirm}:`} || lower(${signerAddress})
      and (j.locked_at is not null or j.attempts < j.max_attempts)
  )`
}
