export { BaseError, isBaseError, type BaseErrorOptions, type ErrorIssue } from './BaseError'
export { errorStatus, isErrorCode, statusForCode, type ErrorCode } from './http'
export { ForbiddenError, UnauthenticatedError } from './auth'
export {
  MalformedJsonError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './request'
export { ConflictError, NotFoundError } from './resource'
export { BarAlreadyUsedError, IdempotencyConflictError, type UsedBar } from './mint'
export { NotReadyError } from './ops'
export { SelfLockoutError } from './users'
export { NotAwaitingApprovalError, SelfApprovalError } from './approvals'
export { OverLimitError, RecipientNotAllowedError, type MintLimitKind } from './controls'
export { BarMismatchError, BarNotInVaultError, StaleBarListError, type BarMismatch, type RequestedBar } from './vault'
export { INTERNAL_ERROR_MESSAGE, toErrorResponse, type ErrorLogEntry, type ToErrorResponseOptions } from './toErrorResponse'
