import type { UserRole } from '@/lib/web/auth/SessionUser'
import { MINT_REQUEST_ROLES } from '@/lib/web/mint/mintRequestRoles'

/** Who may request a redemption: whoever may request a mint (staff, admin). */
export const REDEMPTION_REQUEST_ROLES: readonly UserRole[] = MINT_REQUEST_ROLES

/** Who signs or rejects a redemption (never its requester). */
export const REDEMPTION_SIGNER_ROLES: readonly UserRole[] = ['approver', 'admin']
