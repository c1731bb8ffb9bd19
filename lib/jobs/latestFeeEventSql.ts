import { type SQL, sql } from 'drizzle-orm'
import type { JobEventName } from './recordJobEvent'

/** The timeline events that say where an order's fees stand: held back, or signed and paid. */
export const FEE_EVENTS = ['fee_capped', 'signed', 'replaced', 'mined'] as const satisfies readonly JobEventName[]

/**
 * The newest of an order's FEE_EVENTS (job_events, on its order index), or null. An order
 * whose newest one is 'fee_capped' is held back by the fee ceiling right now: nothing was
 * signed, replaced or mined for it since. The worker records 'fee_capped' once per wait
 * with it, and the fee-capped gauge counts open orders with it.
 */
export function latestFeeEventSql(orderId: SQL): SQL<string | null> {
  return sql<string | null>`(select e.event from job_events e
    where e.order_id = ${orderId} and e.event in (${sql.join(
      FEE_EVENTS.map((name) => sql`${name}`),
      sql`, `,
    )})
    order by e.id desc limit 1)`
}
