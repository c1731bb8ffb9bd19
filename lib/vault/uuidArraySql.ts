import { type SQL, sql } from 'drizzle-orm'

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A uuid[] parameter (`where id = any(${uuidArraySql(ids)})`): one bound value, never a list of them. */
export function uuidArraySql(ids: readonly string[]): SQL {
  for (const id of ids) if (!UUID.test(id)) throw new TypeError(`not a uuid: ${id}`)
  return sql`${`{${ids.join(',')}}`}::uuid[]`
}
