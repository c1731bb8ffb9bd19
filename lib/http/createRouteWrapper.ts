import type { z } from 'zod'
import type { SessionUser, UserRole } from '@/lib/auth/SessionUser'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import { ForbiddenError, UnauthenticatedError } from '@/lib/errors/auth'
import { ValidationError } from '@/lib/errors/request'
import { NotFoundError } from '@/lib/errors/resource'
import { type ToErrorResponseOptions, toErrorResponse } from '@/lib/errors/toErrorResponse'
import { checkSameOrigin, MUTATING_METHODS } from './checkSameOrigin'
import { json } from './json'
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './readJsonBody'
import { type RawBody, readTextBody } from './readTextBody'

/** Who may call a route: a list of roles (a session is required), or `'public'` (no session looked at). */
export type RouteAccess = readonly UserRole[] | 'public'

/** Route params as Next.js passes them (`[id]` -> string, `[...slug]` -> string[]). */
export type RawRouteParams = Record<string, string | string[] | undefined>

/** The second argument Next.js gives a route handler. */
export type NextRouteContext = { params: Promise<RawRouteParams> }

/** What `route()` returns: a Next.js route handler (`export const POST = route({...})`). */
export type NextRouteHandler = (req: Request, ctx?: NextRouteContext) => Promise<Response>

type Schema = z.ZodType
type Parsed<S> = S extends Schema ? z.output<S> : undefined

export type RouteHandlerArgs<
  A extends RouteAccess,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
> = {
  req: Request
  /** the signed-in user (role already checked); null on public routes */
  user: A extends 'public' ? null : SessionUser
  /** the JSON body parsed by `body` (undefined without a `body` schema) */
  body: Parsed<B>
  /** the body as text with its media type, for routes with `rawBody` (undefined otherwise) */
  rawBody: RawBody | undefined
  /** the query string parsed by `query` (undefined without a `query` schema) */
  query: Parsed<Q>
  /** the awaited route params, parsed by `params` when given */
  params: P extends Schema ? z.output<P> : RawRouteParams
}

export type RouteOptions<
  A extends RouteAccess,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
> = {
  roles: A
  /** zod schema of the JSON body; when set, the body must be application/json and <= maxBodyBytes */
  body?: B
  /** zod schema of the query string, given as `{ key: value }` (a repeated key -> string[]) */
  query?: Q
  /** zod schema of the route params; a mismatch answers 404 (the URL names nothing) */
  params?: P
  /**
   * A body that is not (only) JSON, read as UTF-8 text and handed over as `rawBody`, for the
   * route to parse: the media types it takes (`['application/json', 'text/csv']`). Not with `body`.
   */
  rawBody?: { mediaTypes: readonly string[] }
  /** the largest body, `body` or `rawBody`; defaults to 64 KiB (a route that needs more says so, e.g. 20 MiB for bar lists) */
  maxBodyBytes?: number
  /**
   * The one domain call. Return a `Response` as is (e.g. `json(data, 202)`), data for a
   * 200 JSON answer, or nothing for 204. Throw a `BaseError` for a 4xx.
   */
  handler: (args: RouteHandlerArgs<A, B, Q, P>) => unknown
}

export type RouteWrapperDependencies = {
  /**
   * The session's user as the database has it on this request, or null: no session, or
   * one that no longer stands (past its absolute lifetime, a disabled user, a session
   * version the user's row no longer has). Its role is the row's, never the token's
   * (lib/auth/getSessionUser.ts); the role check below trusts it.
   */
  getUser: () => Promise<SessionUser | null>
  /** the app's public URL (APP_URL) for the same-origin check; undefined -> the request's own origin */
  getAppUrl: () => string | undefined
  /** rethrows framework control-flow errors (Next's redirect/notFound/dynamic bail-out) */
  rethrow?: (error: unknown) => void
  log?: ToErrorResponseOptions['log']
}

export type RouteWrapper = <
  A extends RouteAccess,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(
  options: RouteOptions<A, B, Q, P>,
) => NextRouteHandler

/**
 * Builds the route wrapper from its dependencies; `lib/http/route.ts` binds it to
 * next-auth and the config, tests bind it to fakes. Order of checks:
 * session, re-checked against the user's row (401) -> the row's role (403) ->
 * same origin for mutations (403) -> params (404) ->
 * query (422) -> body: media type (415), size (413), JSON (400), schema (422) -> handler.
 * A `rawBody` route gets its body as text after the media type (415) and size (413) checks.
 * Every error thrown on the way, by the handler included, goes through `toErrorResponse`.
 */
export function createRouteWrapper(deps: RouteWrapperDependencies): RouteWrapper {
  return function route<
    A extends RouteAccess,
    B extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    P extends Schema | undefined = undefined,
  >(options: RouteOptions<A, B, Q, P>): NextRouteHandler {
    return async (req, ctx) => {
      let user: SessionUser | null = null
      try {
        if (options.roles !== 'public') {
          user = await deps.getUser()
          if (!user) throw new UnauthenticatedError()
          if (!options.roles.includes(user.role)) throw new ForbiddenError()
        }
        if (MUTATING_METHODS.has(req.method.toUpperCase())) checkSameOrigin(req, { appUrl: deps.getAppUrl() })

        const rawParams: RawRouteParams = (await ctx?.params) ?? {}
        const params = options.params ? parseOr404(options.params, rawParams) : rawParams
        const query = options.query ? parseOr422(options.query, searchParamsToObject(req), 'The query string is invalid.') : undefined
        const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
        const body = options.body ? parseOr422(options.body, await readJsonBody(req, { maxBytes })) : undefined
        const rawBody = options.rawBody && !options.body ? await readTextBody(req, { mediaTypes: options.rawBody.mediaTypes, maxBytes }) : undefined

        // The casts restate what the generics already say: each value was parsed by the
        // schema of the same generic parameter (or is undefined/raw when it was not given).
        const result: unknown = await options.handler({
          req,
          user: user as RouteHandlerArgs<A, B, Q, P>['user'],
          body: body as Parsed<B>,
          rawBody,
          query: query as Parsed<Q>,
          params: params as RouteHandlerArgs<A, B, Q, P>['params'],
        })
        if (result instanceof Response) return result
        if (result === undefined) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
        return json(result, 200)
      } catch (error) {
        deps.rethrow?.(error)
        return toErrorResponse(error, {
          log: deps.log,
          context: { method: req.method, path: pathOf(req), userId: user?.id },
        })
      }
    }
  }
}

/** zod issues -> the API's `{ path, message }`, the path joined with dots (`vaultProof.bars.0.fineOz`). */
export function zodIssues(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((segment) => String(segment)).join('.'),
    message: issue.message,
  }))
}

function parseOr422<S extends Schema>(schema: S, value: unknown, message?: string): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw new ValidationError(zodIssues(result.error), message)
  return result.data
}

function parseOr404<S extends Schema>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw new NotFoundError()
  return result.data
}

function searchParamsToObject(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of new URL(req.url).searchParams) {
    const existing = out[key]
    if (existing === undefined) out[key] = value
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return out
}

function pathOf(req: Request): string | undefined {
  try {
    return new URL(req.url).pathname
  } catch {
    return undefined
  }
}
