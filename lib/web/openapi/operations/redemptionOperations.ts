import { approveMintOrderSchema } from '@/lib/web/approvals/approveMintOrderSchema'
import { rejectMintOrderSchema } from '@/lib/web/approvals/rejectMintOrderSchema'
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { REDEMPTION_REQUEST_ROLES, REDEMPTION_SIGNER_ROLES } from '@/lib/web/redemptions/redemptionRoles'
import {
  depositListSchema,
  redemptionAcceptedSchema,
  redemptionListSchema,
  redemptionSchema,
} from '@/lib/web/redemptions/responseSchemas'
import {
  createRedemptionSchema,
  listDepositsQuerySchema,
  listRedemptionsQuerySchema,
  redemptionIdParamsSchema,
} from '@/lib/web/redemptions/schemas'
import { redemptionApprovalSchema } from '@/lib/web/signing/apiTypes'
import type { ApiOperation } from '../ApiOperation'

/** The deposits to the redemption address, their redemptions and approvals (docs/api.md "Redemptions"). */
export const redemptionOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/gold/deposits',
    summary: 'Transfers to the redemption address seen with their confirmations, newest first, with their status',
    roles: ORDER_READERS,
    query: listDepositsQuerySchema,
    success: { status: 200, description: 'The deposits', schema: depositListSchema },
  },
  {
    method: 'post',
    path: '/api/gold/redemptions',
    summary: 'Match a deposit to whole backing bars of equal fine weight: 202, awaiting approvers',
    roles: REDEMPTION_REQUEST_ROLES,
    body: createRedemptionSchema,
    success: { status: 202, description: 'The redemption, accepted', schema: redemptionAcceptedSchema },
    errors: {
      409: 'deposit_already_used or bar_already_used',
      422: 'validation_failed (no such deposit, a bar not backing, weights that differ), bar_not_in_vault, account_frozen',
    },
  },
  {
    method: 'get',
    path: '/api/gold/redemptions',
    summary: 'Redemptions newest first, keyset pages (staff: their own)',
    roles: ORDER_READERS,
    query: listRedemptionsQuerySchema,
    success: { status: 200, description: 'A page of redemptions', schema: redemptionListSchema },
  },
  {
    method: 'get',
    path: '/api/gold/redemptions/{redemptionId}',
    summary: 'One redemption with its bars, signatures and timeline (staff: their own)',
    roles: ORDER_READERS,
    params: redemptionIdParamsSchema,
    success: { status: 200, description: 'The redemption', schema: redemptionSchema },
  },
  {
    method: 'get',
    path: '/api/gold/redemptions/{redemptionId}/approval',
    summary: "The redemption's RedemptionIntent typed data to sign, how many approvers it needs, and the signatures",
    roles: REDEMPTION_SIGNER_ROLES,
    params: redemptionIdParamsSchema,
    success: { status: 200, description: 'The approval to sign', schema: redemptionApprovalSchema },
  },
  {
    method: 'post',
    path: '/api/gold/redemptions/{redemptionId}/approve',
    summary: "An approver's EIP-712 signature of the RedemptionIntent; enough of them: pending, with its job",
    roles: REDEMPTION_SIGNER_ROLES,
    params: redemptionIdParamsSchema,
    body: approveMintOrderSchema,
    success: { status: 200, description: 'The redemption after the approval', schema: redemptionSchema },
    errors: {
      403: 'self_approval: the requester signs their own redemption',
      409: 'not_awaiting_approval or already_signed',
      422: 'invalid_signature or account_frozen',
    },
  },
  {
    method: 'post',
    path: '/api/gold/redemptions/{redemptionId}/reject',
    summary: 'A second person rejects the redemption, with a reason: its deposit and bars are free again',
    roles: REDEMPTION_SIGNER_ROLES,
    params: redemptionIdParamsSchema,
    body: rejectMintOrderSchema,
    success: { status: 200, description: 'The redemption, rejected', schema: redemptionSchema },
    errors: { 403: 'self_approval: the requester rejects their own redemption', 409: 'not_awaiting_approval' },
  },
]
