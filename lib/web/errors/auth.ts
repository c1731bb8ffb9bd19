import { BaseError } from '@/lib/errors/BaseError'

/** Errors about who is asking: no session (401) or not allowed (403). */

export class UnauthenticatedError extends BaseError {
  override name = 'UnauthenticatedError'
  constructor(message = 'Sign in first.') {
    super('unauthenticated', message)
  }
}

export class ForbiddenError extends BaseError {
  override name = 'ForbiddenError'
  constructor(message = 'You are not allowed to do this.') {
    super('forbidden', message)
  }
}
