import { type SQL, sql } from 'drizzle-orm'

/** One argument of `create_mint_order`: its value and the SQL type it is cast to. */
export type CreateMintOrderArgument = readonly [value: string | number | boolean | null, cast: string]

export type CreateMintOrderCallReturnType = {
  /** `select * from create_mint_order($1::uuid, ...)`: the same text on every call, so postgres.js prepares it once per connection */
  text: string
  values: (string | number | boolean | null)[]
  /** the same call as a Drizzle query, for a caller inside a Drizzle transaction (built only when asked) */
  query: () => SQL
}

/**
 * The statement that calls the intake's SQL function (db/migrations: create_mint_order),
 * built from one list of arguments in the function's parameter order: as text + values for
 * a named prepared statement, and as a Drizzle query. Casts come with each argument
 * (JSON as `text::jsonb`: postgres.js would JSON-encode a string given for a jsonb
 * parameter a second time).
 */
export function createMintOrderCall(args: readonly CreateMintOrderArgument[]): CreateMintOrderCallReturnType {
  const text = `select r_outcome, r_accepted, r_request_hash from create_mint_order(${args.map(([, cast], i) => `$${i + 1}::${cast}`).join(', ')})`
  const query = () =>
    sql`select r_outcome, r_accepted, r_request_hash from create_mint_order(${sql.join(
      args.map(([value, cast]) => sql`${value}::${sql.raw(cast)}`),
      sql`, `,
    )})`
  return { text, values: args.map(([value]) => value), query }
}
