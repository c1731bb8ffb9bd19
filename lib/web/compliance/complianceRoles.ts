import type { UserRole } from '@/db/schema'

/** Who reads the compliance state and operations: admins, auditors, and the approvers who sign them. */
export const COMPLIANCE_READERS: readonly UserRole[] = ['admin', 'auditor', 'approver']

/** Who signs or rejects a compliance operation (never its requester): approvers and admins. */
export const COMPLIANCE_SIGNERS: readonly UserRole[] = ['approver', 'admin']

/** Who asks for a freeze, unfreeze, pause or unpause: admins. */
export const COMPLIANCE_REQUESTERS: readonly UserRole[] = ['admin']
