import type { z } from 'zod'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import type { ClaimedSessionUser } from '@/lib/web/auth/ClaimedSessionUser'
import { getClientIp } from '@/lib/web/auth/getClientIp'
import type { SessionUser, UserRole } from '@/lib/web/auth/SessionUser'
import type { SessionClaims } from '@/lib/web/auth/sessionClaimsFrom'
import { sessionPastLifetime } from '@/lib/web/auth/sessionPastLifetime'
import { ForbiddenError, UnauthenticatedError } from '@/lib/web/errors/auth'
import { RateLimitedError, ValidationError } from '@/lib/web/errors/request'
import { NotFoundError } from '@/lib/web/errors/resource'
import { type ToErrorResponseOptions, toErrorResponse } from '@/lib/web/errors/toErrorResponse'
import { checkSameOrigin, MUTATING_METHODS } from './checkSameOrigin'
import type { RateLimiter } from './createRateLimiter'
import { json } from './json'
import { type OpenTextBodyReturnType, openTextBody, type RawBody } from './openTextBody'
import { DEFAULT_MAX_BODY_BYTES, parseJsonBody } from './parseJsonBody'

/** Who may call a route: a list of roles (a session is required), or `'public'` (no session looked at). */
export type RouteAccess = readonly UserRole[] | 'public'

/** Route params as Next.js passes them (`[id]` -> string, `[...slug]` -> string[]). */
export type RawRouteParams = Record<string, string | string[] | undefined>

/** The second argument Next.js gives a route handler. */
export type NextRouteContext = { params: Promise<RawRouteParams> }

/** What `route()` returns: a Next.js route handler (`export const POST = route({...})`). */
export type NextRouteHandler = (req: Request, ctx?: NextRouteContext) => Promise<Response>

/**
 * Where a route's session is checked against the user's row: in the wrapper (the
 * default: every route and page) or in the handler's one domain call (`'in_handler'`:
 * the intake, whose SQL statement checks it: docs/decisions/031-intake-in-one-statement.md). See `sessionRow`.
 */
export type SessionRowCheck = 'in_wrapper' | 'in_handler'

type Schema = z.ZodType
type Parsed<S> = S extends Schema ? z.output<S> : undefined

export type RouteHandlerArgs<
  A extends RouteAccess,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
  R extends SessionRowCheck = 'in_wrapper',
> = {
  req: Request
  /**
   * The signed-in user (role already checked against the row); null on public routes. With
   * `sessionRow: 'in_handler'`, the user the cookie claims, NOT yet checked against the
   * row: it must go to the domain call that checks it.
   */
  user: A extends 'public' ? null : R extends 'in_handler' ? ClaimedSessionUser : SessionUser
  /** the JSON body parsed by `body` (undefined without a `body` schema) */
  body: Parsed<B>
  /** the body as a stream of text with its media type, for routes with `rawBody` (undefined otherwise) */
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
  R extends SessionRowCheck = 'in_wrapper',
> = {
  roles: A
  /**
   * `'in_handler'` (not for public routes): the wrapper does NOT read the user's row when
   * the request goes through. It decrypts the cookie's claims (cached per process), checks
   * the absolute lifetime and the role the claims carry (a first filter), and hands the
   * handler a `ClaimedSessionUser` that only a domain call checking the row in its own
   * statement accepts (createMintOrder: create_mint_order's step 0, which answers 401/403
   * and writes nothing). Saves the row's round trip on the route's hot path.
   * The order of refusals stays exactly the documented one: whenever the wrapper is about
   * to refuse such a request before its handler (claims missing, past their lifetime or
   * with another role; bad origin, params, query or body), it first makes the full row
   * check (`getUser`) and answers its 401/403 if that fails; only then the refusal at hand.
   * Default `'in_wrapper'`: the row is read here on every request.
   */
  sessionRow?: R
  /**
   * A per-client rate limit (lib/web/http/createRateLimiter.ts), checked before anything
   * else, by the client's IP as getClientIp derives it (one bucket for requests without
   * one): past it, 429 `rate_limited` with `Retry-After`. The public reserves routes use it.
   */
  rateLimit?: RateLimiter
  /** zod schema of the JSON body; when set, the body must be application/json and <= maxBodyBytes */
  body?: B
  /**
   * a request with no body at all (no Content-Type, no bytes) is parsed as `undefined` by `body` (give it an
   * `.optional()` schema) instead of 415: a route whose body only some of its uses carry
   */
  bodyOptional?: boolean
  /** zod schema of the query string, given as `{ key: value }` (a repeated key -> string[]) */
  query?: Q
  /** zod schema of the route params; a mismatch answers 404 (the URL names nothing) */
  params?: P
  /**
   * A body that is not (only) JSON, handed over as `rawBody`: UTF-8 text in chunks as it
   * arrives (lib/web/http/openTextBody.ts), for the route to parse as a stream, never
   * held whole: the media types it takes (`['application/json', 'text/csv']`). Not with
   * `body`. When the handler throws (a refusal at the first bad row), the rest of the body
   * is read and thrown away before the answer, so a client still sending gets it; a body
   * over `maxBodyBytes` then answers 413.
   */
  rawBody?: { mediaTypes: readonly string[] }
  /**
   * the largest body, `body` or `rawBody`; defaults to 64 KiB (a
   * route that needs more says so, e.g. 20 MiB for bar lists)
   */
  maxBodyBytes?: number
  /**
   * The one domain call. Return a `Response` as is (e.g. `json(data, 202)`), data for a
   * 200 JSON answer, or nothing for 204. Throw a `BaseError` for a 4xx.
   */
  handler: (args: RouteHandlerArgs<A, B, Q, P, R>) => unknown
}

export type RouteWrapperDependencies = {
  /**
   * The session's user as the database has it on this request, or null: no session, or
   * one that no longer stands (past its absolute lifetime, a disabled user, a session
   * version the user's row no longer has). Its role is the row's, never the token's
   * (lib/web/auth/getSessionUser.ts); the role check below trusts it.
   */
  getUser: () => Promise<SessionUser | null>
  /**
   * The session cookie's claims, decrypted and NOT checked against the row, or null (no
   * cookie, or one that does not decrypt): for `sessionRow: 'in_handler'` routes only.
   */
  getClaims: () => Promise<SessionClaims | null>
  /** the absolute lifetime of a session (SESSION_MAX_AGE_HOURS), as getUser checks it */
  getSessionMaxAgeSeconds: () => number
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
  R extends SessionRowCheck = 'in_wrapper',
>(
  options: RouteOptions<A, B, Q, P, R>,
) => NextRouteHandler

/**
 * Builds the route wrapper from its dependencies; `lib/web/http/route.ts` binds it to
 * next-auth and the config, tests bind it to fakes. Order of checks:
 * rate limit, when the route has one (429) ->
 * session, re-checked against the user's row (401) -> the row's role (403) ->
 * same origin for mutations (403) -> params (404) ->
 * query (422) -> body: media type (415), size (413), JSON (400), schema (422) -> handler.
 * A `rawBody` route gets its body as a stream of text after the media type (415) and
 * declared size (413) checks; reading it past its size is 413, bytes not UTF-8 422.
 * A `sessionRow: 'in_handler'` route keeps that order with the row's check moved: the
 * claims (lifetime, claimed role) stand in for it on the way in, the handler's domain call
 * makes it (401 -> 403, before anything else it does), and any refusal here before the
 * handler first makes the full row check, so 401/403 still come before 403/404/422/415/...
 * Every error thrown on the way, by the handler included, goes through `toErrorResponse`.
 */
export function createRouteWrapper(deps: RouteWrapperDependencies): RouteWrapper {
  /** The full check, against the user's row: 401 for a session that no longer stands, 403 for the row's role. */
  async function checkRow(roles: readonly UserRole[]): Promise<SessionUser> {
    const user = await deps.getUser()
    if (!user) throw new UnauthenticatedError()
    if (!roles.includes(user.role)) throw new ForbiddenError()
    return user
  }

  /**
   * `sessionRow: 'in_handler'`: who the claims say, when they stand (not past their
   * lifetime) and claim an allowed role; else the row decides (401/403, logged like every
   * refused session). A row that allows what the claims did not (a role set in the
   * database without a version bump) lets the request in: the row always decides, and
   * the handler's call checks it again.
   */
  async function claimedUser(roles: readonly UserRole[]): Promise<{ user: ClaimedSessionUser; rowChecked: boolean }> {
    const claims = await deps.getClaims()
    const stands =
      claims && !sessionPastLifetime({ claims, now: new Date(), maxAgeSeconds: deps.getSessionMaxAgeSeconds() })
    if (claims && stands && roles.includes(claims.role)) return { user: claimedFrom(claims, roles), rowChecked: false }
    await checkRow(roles)
    if (!claims) throw new UnauthenticatedError()
    return { user: claimedFrom(claims, roles), rowChecked: true }
  }

  return function route<
    A extends RouteAccess,
    B extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    P extends Schema | undefined = undefined,
    R extends SessionRowCheck = 'in_wrapper',
  >(options: RouteOptions<A, B, Q, P, R>): NextRouteHandler {
    type Args = RouteHandlerArgs<A, B, Q, P, R>
    return async (req, ctx) => {
      let user: SessionUser | ClaimedSessionUser | null = null
      try {
        if (options.rateLimit) {
          const verdict = options.rateLimit.take(getClientIp(req) ?? 'unknown')
          if (!verdict.allowed) throw new RateLimitedError({ retryAfterSeconds: verdict.retryAfterMs / 1000 })
        }
        // the row's check still owed before a refusal here ('in_handler' routes whose claims stood)
        let rowOwed: readonly UserRole[] | null = null
        if (options.roles !== 'public') {
          if (options.sessionRow === 'in_handler') {
            const claimed = await claimedUser(options.roles)
            user = claimed.user
            if (!claimed.rowChecked) rowOwed = options.roles
          } else {
            user = await checkRow(options.roles)
          }
        }

        let input: Pick<Args, 'params' | 'query' | 'body'> & { rawBody: OpenTextBodyReturnType | undefined }
        try {
          input = await readInput(req, ctx, options, deps.getAppUrl())
        } catch (refusal) {
          // the documented order: a session that no longer stands answers 401/403 before this refusal
          if (rowOwed) await checkRow(rowOwed)
          throw refusal
        }

        // The cast restates what the generics already say: the user was checked as `roles`
        // and `sessionRow` say (a ClaimedSessionUser exactly when 'in_handler').
        let result: unknown
        try {
          result = await options.handler({ req, user: user as Args['user'], ...input })
        } catch (refusal) {
          // the client may still be sending: read the rest (thrown away) so that it gets this
          // answer and not a reset connection; 413 instead if the whole body is over the limit
          await input.rawBody?.discardRest()
          throw refusal
        }
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

/**
 * The checks after the session's, in their order: same origin for mutations (403), params
 * (404), query (422), then the body (415, 413, 400, 422; or the raw body).
 */
async function readInput<
  A extends RouteAccess,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
  R extends SessionRowCheck,
>(
  req: Request,
  ctx: NextRouteContext | undefined,
  options: RouteOptions<A, B, Q, P, R>,
  appUrl: string | undefined,
): Promise<
  Pick<RouteHandlerArgs<A, B, Q, P, R>, 'params' | 'query' | 'body'> & { rawBody: OpenTextBodyReturnType | undefined }
> {
  if (MUTATING_METHODS.has(req.method.toUpperCase())) checkSameOrigin(req, { appUrl })
  const rawParams: RawRouteParams = (await ctx?.params) ?? {}
  const params = options.params ? parseOr404(options.params, rawParams) : rawParams
  const query = options.query
    ? parseOr422(options.query, searchParamsToObject(req), 'The query string is invalid.')
    : undefined
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const noBody =
    options.bodyOptional === true &&
    req.headers.get('content-type') === null &&
    (req.headers.get('content-length') ?? '0').trim() === '0'
  const body = options.body
    ? parseOr422(options.body, noBody ? undefined : await parseJsonBody(req, { maxBytes }))
    : undefined
  const rawBody =
    options.rawBody && !options.body
      ? await openTextBody(req, { mediaTypes: options.rawBody.mediaTypes, maxBytes })
      : undefined
  // The casts restate what the generics already say: each value was parsed by the schema of
  // the same generic parameter (or is undefined/raw when it was not given).
  return {
    body: body as Parsed<B>,
    rawBody,
    query: query as Parsed<Q>,
    params: params as RouteHandlerArgs<A, B, Q, P, R>['params'],
  }
}

function claimedFrom(claims: SessionClaims, allowedRoles: readonly UserRole[]): ClaimedSessionUser {
  return {
    id: claims.id,
    email: claims.email,
    claimedRole: claims.role,
    sessionVersion: claims.sessionVersion,
    sessionId: claims.sessionId,
    allowedRoles,
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
