import { BaseError } from '@/lib/errors/BaseError'

/**
 * Errors of the admins' user operations (lib/web/users/). Code in `lib/errors/http.ts`:
 * self_lockout 409.
 */

/**
 * An admin tried to disable or demote their own account: another
 * admin must do it, so the desk never locks itself out by one click.
 */
export class SelfLockoutError extends BaseError {
  override name = 'SelfLockoutError'
  constructor() {
    super(
      'self_lockout',
      'You cannot disable your own account or take away your own admin role; another admin must do it.',
    )
  }
}
