/**
 * THE uuid pattern (any version, either case), as source text so that SQL can use the
 * same one (`value ~ ${UUID_PATTERN}`, lib/jobs/payloadOrderIdSql.ts) as the code does.
 */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

const UUID = new RegExp(UUID_PATTERN)

/** A canonical uuid string (any version): order ids, user ids. Used to answer 404, not 500, for a malformed id. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
