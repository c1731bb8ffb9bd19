import { z } from 'zod'
import { recipientChoiceListSchema } from '@/lib/controls/responseSchemas'
import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { approveMintOrderSchema } from '@/lib/web/approvals/approveMintOrderSchema'
import { bindSigningKeySchema } from '@/lib/web/approvals/bindSigningKeySchema'
import { rejectMintOrderSchema } from '@/lib/web/approvals/rejectMintOrderSchema'
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { listMintOrdersQuerySchema } from '@/lib/web/mint/listMintOrdersQuerySchema'
import { MINT_REQUEST_ROLES } from '@/lib/web/mint/mintRequestRoles'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { mintAcceptedSchema, mintOrderListSchema, mintOrderSchema } from '@/lib/web/mint/responseSchemas'
import { boundSigningKeySchema, mintApprovalSchema, signingKeysSchema } from '@/lib/web/signing/apiTypes'
import type { ApiOperation } from '../ApiOperation'

/** those who bind a key and sign (an auditor signs nothing) */
const signers = ['staff', 'approver', 'admin'] as const
const approvers = ['approver', 'admin'] as const

/** The mint orders, their approvals and the signed-in user's signing key (docs/api.md "Mint orders", "Approvals"). */
export const mintOperations: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/api/gold/mint',
    summary: 'Request a mint: 202 at once, the order awaits its approvers (Idempotency-Key replays the answer)',
    roles: MINT_REQUEST_ROLES,
    body: mintRequestSchema,
    success: { status: 202, description: 'The order, accepted', schema: mintAcceptedSchema },
    errors: {
      409: 'bar_already_used, stale_bar_list or idempotency_conflict',
      422: 'validation_failed, bar_not_in_vault, bar_mismatch, recipient_not_allowed or over_limit',
    },
  },
  {
    method: 'get',
    path: '/api/gold/mint',
    summary: 'Orders newest first, keyset pages (staff: their own; approver, admin, auditor: every order)',
    roles: ORDER_READERS,
    query: listMintOrdersQuerySchema,
    success: { status: 200, description: 'A page of orders', schema: mintOrderListSchema },
  },
  {
    method: 'get',
    path: '/api/gold/mint/{orderId}',
    summary: 'One order with its proof, decision, transaction and timeline (staff: their own)',
    roles: ORDER_READERS,
    params: orderIdParamsSchema,
    success: { status: 200, description: 'The order', schema: mintOrderSchema },
  },
  {
    method: 'get',
    path: '/api/gold/recipients',
    summary: 'The addresses mints may go to, with their labels (the mint form offers them)',
    roles: ORDER_READERS,
    success: { status: 200, description: 'The allowlist, address and label', schema: recipientChoiceListSchema },
  },
  {
    method: 'get',
    path: '/api/gold/mint/{orderId}/events',
    summary: 'The order live, as Server-Sent Events: an `order` event with the order at once and after each step',
    roles: ORDER_READERS,
    params: orderIdParamsSchema,
    success: {
      status: 200,
      description:
        'A text/event-stream: `retry: 1000`, then `event: order` with `data:` the order as GET /api/gold/mint/{orderId} ' +
        'gives it, at once and after each event on its timeline; `: keep-alive` comments every 15 s; it ends ' +
        'after 5 minutes (the browser reconnects)',
      schema: z.string(),
      mediaType: 'text/event-stream',
    },
  },
  {
    method: 'get',
    path: '/api/gold/mint/{orderId}/approval',
    summary: "The order's MintIntent typed data to sign, how many approvers it needs, and the signatures so far",
    roles: approvers,
    params: orderIdParamsSchema,
    success: { status: 200, description: 'The approval to sign', schema: mintApprovalSchema },
  },
  {
    method: 'post',
    path: '/api/gold/mint/{orderId}/approve',
    summary: "An approver's EIP-712 signature of the order's MintIntent; enough of them: pending, with its job",
    roles: approvers,
    params: orderIdParamsSchema,
    body: approveMintOrderSchema,
    success: { status: 200, description: 'The order after the approval', schema: mintOrderSchema },
    errors: {
      403: 'self_approval: the requester approves their own order',
      409: 'not_awaiting_approval or already_signed',
      422: 'invalid_signature',
    },
  },
  {
    method: 'post',
    path: '/api/gold/mint/{orderId}/reject',
    summary: 'A second person rejects the order, with a reason: its bars are freed',
    roles: approvers,
    params: orderIdParamsSchema,
    body: rejectMintOrderSchema,
    success: { status: 200, description: 'The order, rejected', schema: mintOrderSchema },
    errors: { 403: 'self_approval: the requester rejects their own order', 409: 'not_awaiting_approval' },
  },
  {
    method: 'get',
    path: '/api/me/signing-key',
    summary: 'The text a key personal_signs to be bound to the signed-in user, and the keys bound',
    roles: signers,
    success: { status: 200, description: 'The challenge and the bound keys', schema: signingKeysSchema },
  },
  {
    method: 'post',
    path: '/api/me/signing-key',
    summary: 'Binds a key to the signed-in user by its signature of the challenge (audited)',
    roles: signers,
    body: bindSigningKeySchema,
    success: { status: 200, description: 'The key now bound', schema: boundSigningKeySchema },
    errors: { 409: 'conflict: the key is bound to another user', 422: 'invalid_signature' },
  },
]
