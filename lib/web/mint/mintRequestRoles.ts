import type { UserRole } from '@/lib/web/auth/SessionUser'

/**
 * Who may request a mint (POST /api/gold/mint's `roles`; approvers approve, they do not
 * request): the route declares it, and the intake's statement checks the user's row
 * against the same list (create_mint_order's step 0), as do the bench's raw-SQL baseline
 * and anything else that requests as the route does.
 */
export const MINT_REQUEST_ROLES: readonly UserRole[] = ['staff', 'admin']
