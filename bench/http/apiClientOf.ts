import { type ApiClient, createApiClient } from '../../cli/apiClient/createApiClient'
import type { HttpSession } from './signIn'

/** The typed client of the API (cli/apiClient/createApiClient.ts) signed in as `session`: its cookie, its Origin. */
export function apiClientOf(session: HttpSession): ApiClient {
  return createApiClient({ baseUrl: session.baseUrl, cookie: session.cookie, origin: session.origin })
}
