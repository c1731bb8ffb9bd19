import type { z } from 'zod'
import type { RouteAccess } from '@/lib/web/http/route'

export type ApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** A route's answer when it goes through: its status, and the zod schema of its JSON (none for other bodies). */
export type ApiSuccess = {
  status: number
  description: string
  /** the answer's zod schema: the one its handler's return type is inferred from */
  schema?: z.ZodType
  /** the answer's media type when it is not JSON (the metrics' Prometheus text) */
  mediaType?: string
  /** the other media types the same status may come as, by the query or Accept (the bars of a pack as text/csv) */
  alsoMediaTypes?: readonly string[]
}

/**
 * One operation of the API as the OpenAPI document describes it (lib/web/openapi/buildOpenApiDocument.ts): the very
 * zod schemas its route validates with (`params`, `query`, `body`), and the schema of its answer. The refusals the
 * route wrapper gives from these options (401, 403, 404, 413, 415, 422, 429) are added by the builder; `errors` names
 * those of the operation itself (409 not_awaiting_approval, ...).
 */
export type ApiOperation = {
  method: ApiMethod
  /** the OpenAPI path: `/api/gold/mint/{orderId}` for app/api/gold/mint/[orderId]/route.ts */
  path: string
  summary: string
  /** the roles the route lets through, or 'public' */
  roles: RouteAccess
  params?: z.ZodObject
  query?: z.ZodType
  body?: z.ZodType
  /** a body read as a stream (`rawBody` of the route): its media types */
  rawBody?: readonly string[]
  /** the route answers 429 rate_limited past its per-client limit */
  rateLimited?: boolean
  success: ApiSuccess
  /** the route's other answers when it goes through (PATCH /api/admin/users/{userId}: 202 for a role change) */
  alsoSucceeds?: readonly ApiSuccess[]
  /** the operation's own refusals: status -> when */
  errors?: Readonly<Record<number, string>>
}
