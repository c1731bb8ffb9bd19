export { NotAwaitingApprovalError, SelfApprovalError } from './approvals'
export { ForbiddenError, UnauthenticatedError } from './auth'
export { BaseError, type BaseErrorOptions, type ErrorIssue, isBaseError } from './BaseError'
export { type MintLimitKind, OverLimitError, RecipientNotAllowedError } from './controls'
export { type ErrorCode, errorStatus, isErrorCode, statusForCode } from './http'
export { BarAlreadyUsedError, IdempotencyConflictError, type UsedBar } from './mint'
export { NotReadyError } from './ops'
export {
  MalformedJsonError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './request'
export { ConflictError, NotFoundError } from './resource'
export {
  type ErrorLogEntry,
  INTERNAL_ERROR_MESSAGE,
  type ToErrorResponseOptions,
  toErrorResponse,
} from './toErrorResponse'
export { SelfLockoutError } from './users'
export { type BarMismatch, BarMismatchError, BarNotInVaultError, type RequestedBar, StaleBarListError } from './vault'
