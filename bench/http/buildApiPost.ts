import {
  type ClientPathsWithMethod,
  createFinalURL,
  createQuerySerializer,
  defaultPathSerializer,
  type MethodResponse,
  type ParamsOption,
  type RequestBodyOption,
} from 'openapi-fetch'
import type { ApiClient } from '../../cli/apiClient/createApiClient'
import type { paths } from '../../cli/apiClient/openapi.generated'

/** A path of the API that takes a POST, as the document writes it: `/api/gold/mint/{orderId}/approve`. */
export type ApiPostPath = ClientPathsWithMethod<ApiClient, 'post'>

/** A POST's parameters and JSON body, typed as `createApiClient`'s `POST` types them. */
export type ApiPostInit<P extends ApiPostPath> = ParamsOption<paths[P]['post']> & RequestBodyOption<paths[P]['post']>

/** What a POST answers on success, as the document types it (e.g. the 202 of /api/gold/mint: `{ orderId, ... }`). */
export type ApiPostAnswer<P extends ApiPostPath> = MethodResponse<ApiClient, 'post', P>

/** A POST ready for the wire: the path with its parameters filled in (and its query), the body as JSON. */
export type ApiPost = { path: string; body: string }

const querySerializer = createQuerySerializer()

/**
 * A typed POST for a client that sends its own bytes (the bench's keep-alive pool, bench/http/createJsonPoster.ts):
 * the path, its parameters and the body are checked against the generated paths as `createApiClient(...).POST`
 * checks them, and the path is filled in by openapi-fetch's own serializers, so both send the same request line.
 *
 * @example
 * const { path, body } = buildApiPost('/api/gold/mint/{orderId}/approve', {
 *   params: { path: { orderId } },
 *   body: { signature },
 * })
 */
export function buildApiPost<P extends ApiPostPath>(path: P, init: ApiPostInit<P>): ApiPost {
  // the init's params and body narrowed by P; the serializers take any record
  const { params, body } = init as { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> } } & {
    body?: unknown
  }
  return {
    path: createFinalURL(path, {
      baseUrl: '',
      params: params ?? {},
      querySerializer,
      pathSerializer: defaultPathSerializer,
    }),
    body: JSON.stringify(body),
  }
}
