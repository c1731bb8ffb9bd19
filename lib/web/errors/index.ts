export { NotAwaitingApprovalError, SelfApprovalError } from '@/lib/errors/approvals'
export { BaseError, type BaseErrorOptions, type ErrorIssue, isBaseError } from '@/lib/errors/BaseError'
export { type MintLimitKind, OverLimitError, RecipientNotAllowedError } from '@/lib/errors/controls'
export { type ErrorCode, errorStatus, isErrorCode, statusForCode } from '@/lib/errors/http'
export { BarAlreadyUsedError, IdempotencyConflictError, type UsedBar } from '@/lib/errors/mint'
export { ForbiddenError, UnauthenticatedError } from './auth'
export { ChangeNotAwaitingError, SelfConfirmError } from './changes'
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
