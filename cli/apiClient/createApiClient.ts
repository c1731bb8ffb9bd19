import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { paths } from './openapi.generated'

/** mintdesk's API as openapi-fetch types it from the generated paths: `client.GET('/api/health')`. */
export type ApiClient = Client<paths>

export type CreateApiClientParameters = {
  /** where the web answers, e.g. http://127.0.0.1:3000 (no trailing /api: the paths carry it) */
  baseUrl: string
  /** the Cookie header of a signed-in session (next-auth's session cookie); none for the public routes */
  cookie?: string
  /** sent with every request */
  headers?: Record<string, string>
  /**
   * the Origin a write (POST, PUT, PATCH, DELETE) carries, as a browser's does: the route wrapper refuses a write from
   * another origin. The origin of `baseUrl` unless told
   */
  origin?: string
  /** the fetch that sends the requests (globalThis.fetch unless told; a test may hand the route handlers in) */
  fetch?: ClientOptions['fetch']
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The one client of mintdesk's API for our own tools (cli/, bench/, tests): openapi-fetch typed by
 * cli/apiClient/openapi.generated.ts, so a path, its parameters, its body and its answers are checked against the
 * contract the routes publish at GET /api/openapi.json. Answers are `{ data, error, response }`; `error` has the
 * API's one error shape.
 *
 * @example
 * const api = createApiClient({ baseUrl, cookie })
 * const { data, error } = await api.POST('/api/gold/mint/{orderId}/approve', {
 *   params: { path: { orderId } },
 *   body: { signature },
 * })
 */
export function createApiClient({
  baseUrl,
  cookie,
  headers = {},
  origin = new URL(baseUrl).origin,
  fetch,
}: CreateApiClientParameters): ApiClient {
  const client = createClient<paths>({
    baseUrl,
    headers: { ...headers, ...(cookie === undefined ? {} : { cookie }) },
    // a redirect (next-auth's sign-in answers 302 with the session cookie) is the answer, not a place to follow
    redirect: 'manual',
    ...(fetch ? { fetch } : {}),
  })
  client.use({
    onRequest: ({ request }) => {
      if (WRITES.has(request.method) && !request.headers.has('origin')) request.headers.set('origin', origin)
      return request
    },
  })
  return client
}
