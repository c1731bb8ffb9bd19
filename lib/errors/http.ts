/**
 * THE table from error code to HTTP status. Every error the API can answer with has a
 * code here; `toErrorResponse` uses it and nothing else decides a status. docs/api.md lists
 * the public codes; add a code here (and a class beside its domain) before answering with it.
 * A code no answer carries (a bug, the worker's jobs, the local stack) is not here: it is
 * declared by its class (`BaseError<'config_invalid'>`) and answered as 500 `internal_error`.
 */
export const errorStatus = {
  malformed_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  self_approval: 403,
  not_found: 404,
  method_not_allowed: 405,
  bar_already_used: 409,
  stale_bar_list: 409,
  idempotency_conflict: 409,
  not_awaiting_approval: 409,
  not_awaiting_second_admin: 409,
  already_signed: 409,
  // redemptions (lib/web/errors/redemptions.ts)
  deposit_already_used: 409,
  conflict: 409,
  job_running: 409,
  job_not_retryable: 409,
  job_not_cancellable: 409,
  order_confirmed: 409,
  self_lockout: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  bar_not_in_vault: 422,
  bar_mismatch: 422,
  recipient_not_allowed: 422,
  over_limit: 422,
  invalid_signature: 422,
  account_frozen: 422,
  // the stop switch is on (lib/web/signingSwitch/): stopping again; nothing is lost, work waits
  signing_stopped: 423,
  rate_limited: 429,
  internal_error: 500,
  not_ready: 503,
  // notifications (lib/errors/notifications.ts): production without WEBHOOK_SECRETS_KEY
  webhooks_not_configured: 503,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof errorStatus

export function statusForCode(code: ErrorCode): number {
  return errorStatus[code]
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value)
}
