/**
 * THE table from error code to HTTP status. Every error the API can answer with has a
 * code here; `toErrorResponse` uses it and nothing else decides a status. docs/api.md lists
 * the public codes; add a code here (and a class beside its domain) before using it.
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
  rate_limited: 429,
  internal_error: 500,
  // internal: a bug or a broken environment, answered as a generic 500
  invalid_decimal: 500,
  invalid_order_id: 500,
  chain_timeout: 500,
  config_invalid: 500,
  invalid_public_key: 500,
  der_parse_failed: 500,
  kms_public_key_invalid: 500,
  gold_token_artifact_invalid: 500,
  // the worker's jobs (lib/errors/jobs.ts): never answered to a client
  job_failed: 500,
  job_permanent_failure: 500,
  worker_start_failed: 500,
  // client side only: an error answer that is not the API's shape (lib/web/errors/api.ts)
  http_error: 500,
  // the local stack and the release build (scripts/errors/stack.ts): never reach a client
  anvil_start_failed: 500,
  kms_server_start_failed: 500,
  kms_request_rejected: 500,
  deploy_token_failed: 500,
  release_build_failed: 500,
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
