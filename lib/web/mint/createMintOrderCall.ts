import type { CreateMintOrderIntake } from './createMintOrderArguments'

export type CreateMintOrderCallReturnType = {
  /**
   * `select ... from create_mint_order($1::text::jsonb)`: the same text
   * on every call, so postgres.js prepares it once per connection
   */
  text: string
  /** the one argument: the intake's named arguments as JSON text */
  values: [string]
}

const TEXT = 'select r_outcome, r_accepted, r_request_hash from create_mint_order($1::text::jsonb)'

/**
 * The statement that calls the intake's SQL function (db/functions/create_mint_order.sql)
 * with its one argument, the object of named arguments createMintOrderArguments builds: as
 * text + values for a named prepared statement. The JSON goes as `text::jsonb` (postgres.js
 * would JSON-encode a string given for a jsonb parameter a second time).
 *
 * @example
 * const call = createMintOrderCall(createMintOrderArguments({ orderId, session, request, ... }))
 * const rows = await sql.unsafe(call.text, call.values, { prepare: true })
 */
export function createMintOrderCall(intake: CreateMintOrderIntake): CreateMintOrderCallReturnType {
  return { text: TEXT, values: [JSON.stringify(intake)] }
}
