import { BaseError, type ErrorIssue } from '@/lib/errors/BaseError'

/** Errors about the shape of an HTTP request, raised by `lib/web/http` before any domain code runs. */

export class ValidationError extends BaseError {
  override name = 'ValidationError'
  constructor(issues: ErrorIssue[], message = 'The request is invalid.', options: { cause?: unknown } = {}) {
    super('validation_failed', message, { issues, cause: options.cause })
  }
}

export class MalformedJsonError extends BaseError {
  override name = 'MalformedJsonError'
  constructor(options: { cause?: unknown } = {}) {
    super('malformed_json', 'The request body is not valid JSON.', options)
  }
}

export class PayloadTooLargeError extends BaseError {
  override name = 'PayloadTooLargeError'
  constructor({ limitBytes }: { limitBytes: number }) {
    super('payload_too_large', `The request body is larger than ${formatBytes(limitBytes)}.`)
  }
}

export class UnsupportedMediaTypeError extends BaseError {
  override name = 'UnsupportedMediaTypeError'
  /** `mediaTypes`: what the route accepts (application/json unless said otherwise) */
  constructor({ mediaTypes = ['application/json'] }: { mediaTypes?: readonly string[] } = {}) {
    super('unsupported_media_type', `The request body must be ${mediaTypes.join(' or ')}.`)
  }
}

export class MethodNotAllowedError extends BaseError {
  override name = 'MethodNotAllowedError'
  constructor({ method }: { method: string }) {
    super('method_not_allowed', `Method ${method} is not allowed here.`)
  }
}

export class RateLimitedError extends BaseError {
  override name = 'RateLimitedError'
  readonly retryAfterSeconds: number | undefined
  constructor({ retryAfterSeconds }: { retryAfterSeconds?: number } = {}) {
    super('rate_limited', 'Too many requests; try again later.')
    this.retryAfterSeconds = retryAfterSeconds
  }
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}
