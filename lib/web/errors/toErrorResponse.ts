import { isBaseError } from '@/lib/errors/BaseError'
import { errorStatus, isErrorCode } from '@/lib/errors/http'
import { redactSecrets } from '@/lib/errors/redactSecrets'
import { isDatabaseUnavailable } from './isDatabaseUnavailable'
import { RateLimitedError } from './request'

export type ErrorLogEntry = {
  msg: string
  status: number
  code: string
  /** the original error, with its stack and cause; for the server log only */
  err: unknown
  context?: Record<string, unknown>
}

export type ToErrorResponseOptions = {
  /** where server-side errors go; defaults to console.error */
  log?: (entry: ErrorLogEntry) => void
  /** request details for the log line (method, path, user id) */
  context?: Record<string, unknown>
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error'
export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable; try again in a moment.'

/**
 * Any thrown value -> the API's error `Response`: `{ error: { code, message, issues? } }`
 * with the status from `errorStatus`. A `BaseError` keeps its code and message; anything
 * else becomes 500 `internal_error` with a generic message, its details and stack going
 * only to the server log.
 */
export function toErrorResponse(
  error: unknown,
  { log = logServerError, context }: ToErrorResponseOptions = {},
): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })

  if (isBaseError(error)) {
    const status = isErrorCode(error.code) ? errorStatus[error.code] : 500
    // 503 not_ready is an expected operational answer (a readiness probe), not a bug to log
    if (status === 500) log({ msg: error.message, status, code: error.code, err: error, context })
    if (error instanceof RateLimitedError && error.retryAfterSeconds !== undefined) {
      headers.set('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
    }
    const body = {
      error: {
        // a 500 is a bug or an internal failure: its message may name internals (key ids,
        // SQL), so the client gets the generic code and sentence and the log gets the rest
        code: status === 500 ? 'internal_error' : error.code,
        message: status === 500 ? INTERNAL_ERROR_MESSAGE : error.message,
        ...(error.issues && error.issues.length > 0 ? { issues: error.issues } : {}),
      },
    }
    return new Response(JSON.stringify(body), { status, headers })
  }

  if (isDatabaseUnavailable(error)) {
    log({ msg: 'database unavailable', status: 503, code: 'not_ready', err: error, context })
    headers.set('retry-after', '1')
    return new Response(JSON.stringify({ error: { code: 'not_ready', message: DATABASE_UNAVAILABLE_MESSAGE } }), {
      status: 503,
      headers,
    })
  }

  log({ msg: 'unhandled error', status: 500, code: 'internal_error', err: error, context })
  return new Response(JSON.stringify({ error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } }), {
    status: 500,
    headers,
  })
}

/**
 * One JSON line on stderr, URLs redacted (a chain error's message carries the RPC URL and its key): how a failure the
 * client's answer cannot carry (a stream cut, a part of a page left out) is still seen.
 */
export function logServerError(entry: ErrorLogEntry): void {
  const err = entry.err
  console.error(
    redactSecrets(
      JSON.stringify({
        level: 'error',
        msg: entry.msg,
        status: entry.status,
        code: entry.code,
        ...entry.context,
        err: describeError(err),
      }),
    ),
  )
}

function describeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return { value: String(err) }
  return {
    name: err.name,
    message: err.message,
    stack: err.stack,
    ...(err.cause !== undefined && depth < 3 ? { cause: describeError(err.cause, depth + 1) } : {}),
  }
}
