import { type SQL, sql } from 'drizzle-orm'
import { UUID_PATTERN } from '@/lib/mint/isUuid'

/**
 * The order id of a graphile-worker job read from its payload (`{ orderId }` for the
 * mint tasks), as a uuid, or null when the payload holds none or not a uuid (a payload
 * may come from older code; a cast would fail the whole query).
 */
export function payloadOrderIdSql(alias: string): SQL {
  const a = sql.raw(alias)
  return sql`(case when (${a}.payload->>'orderId') ~ ${UUID_PATTERN} then (${a}.payload->>'orderId')::uuid end)`
}
