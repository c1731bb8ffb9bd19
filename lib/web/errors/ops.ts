import { BaseError } from '@/lib/errors/BaseError'

/** Errors of the operations endpoints. */

export class NotReadyError extends BaseError {
  override name = 'NotReadyError'
  constructor(message = 'The service is not ready.') {
    super('not_ready', message)
  }
}
