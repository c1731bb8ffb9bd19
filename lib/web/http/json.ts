/**
 * JSON.stringify that writes `bigint` as a decimal string (wei amounts, job ids), since
 * JSON numbers would lose precision and JSON.stringify throws on bigint. Amounts in the
 * API are formatted by their domain code before they get here; this is the safety net.
 */
export function stringifyJson(data: unknown): string {
  return JSON.stringify(data, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))
}

/** A JSON `Response` (bigint-safe), not cached by browsers or proxies. */
export function json(data: unknown, status = 200, init: { headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers)
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8')
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store')
  return new Response(stringifyJson(data), { status, headers })
}
