const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A canonical uuid string (any version). Used to answer 404, not 500, for a malformed id. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}
