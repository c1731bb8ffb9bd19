import type { ErrorCode } from './http'

/** One problem in a request, `path` joined with dots (`vaultProof.bars.0.fineOz`). */
export type ErrorIssue = { path: string; message: string }

export type BaseErrorOptions = {
  issues?: ErrorIssue[]
  /** the underlying error; kept for the server log, never sent to the client */
  cause?: unknown
}

// A brand that survives duplicated module copies (two bundles, a test runner), where
// `instanceof` alone would miss.
const brand = Symbol.for('mintdesk.BaseError')

/**
 * The one base of mintdesk's errors. `code` is stable (clients switch on it) and maps to
 * an HTTP status in `lib/errors/http.ts`; `Code` is that table's codes unless the class
 * names codes no API answer carries (`extends BaseError<'job_failed'>`: a 500). `message` IS sent to the client: keep
 * it a short human sentence without internal detail (SQL, other users' data, stacks); put
 * the internals in `cause`, which only reaches the server log.
 */
export class BaseError<Code extends string = ErrorCode> extends Error {
  override name = 'BaseError'
  readonly code: Code
  readonly issues: ErrorIssue[] | undefined
  readonly [brand] = true

  constructor(code: Code, message: string, options: BaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.issues = options.issues
  }
}

export function isBaseError(error: unknown): error is BaseError<string> {
  return (
    error instanceof BaseError || (error instanceof Error && (error as Error & { [brand]?: unknown })[brand] === true)
  )
}
