import type { UserRole } from './SessionUser'

/**
 * Who a request says it is, from its session cookie alone, NOT yet checked against the
 * user's row: what the route wrapper hands a handler of a `sessionRow: 'in_handler'` route
 * (lib/web/http/createRouteWrapper.ts). Deliberately not a `SessionUser`: it has no `role`,
 * so it cannot be passed where a checked user is expected; the handler must hand it to
 * the one domain call that checks the row in its own statement (lib/web/mint/createMintOrder:
 * create_mint_order's step 0), which refuses 401/403 as the wrapper would have.
 */
export type ClaimedSessionUser = {
  id: string
  email: string
  /** the role the session was issued with: a first filter in the wrapper, never what decides */
  claimedRole: UserRole
  /** the user's session_version when the session was issued; the row must still have it */
  sessionVersion: number
  /** the session's own id (its cookie's `sid`); it must not have been signed out */
  sessionId: string
  /** the roles the route allows (its `roles`): the row's role must be one of them */
  allowedRoles: readonly UserRole[]
}

/**
 * What a check against the user's row needs: who, the version and the id the session holds
 * and the roles allowed. A `ClaimedSessionUser` is one; a caller that read the row itself (a
 * `SessionUser`) builds one with the version it holds, so no caller can leave the check out.
 */
export type SessionToCheck = Pick<ClaimedSessionUser, 'id' | 'email' | 'sessionVersion' | 'sessionId' | 'allowedRoles'>
