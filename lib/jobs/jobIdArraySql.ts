import { type SQL, sql } from 'drizzle-orm'

/**
 * Job ids as one bigint[] parameter (drizzle would expand a JS array into a list of
 * parameters). Ids are bigints, so the array literal is safe.
 */
export function jobIdArraySql(ids: readonly bigint[]): SQL {
  return sql`${`{${ids.map((id) => id.toString()).join(',')}}`}::bigint[]`
}
