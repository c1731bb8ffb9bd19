import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import {
  reconciliationSchema,
  resolvedEventSchema,
  resolveUnreconciledBodySchema,
  unreconciledEventParamsSchema,
} from '@/lib/web/reconciliation/schemas'
import { nonceSpeedUpQueuedSchema, signerResyncQueuedSchema } from '@/lib/web/signers/responseSchemas'
import {
  cancelNonceBodySchema,
  signerNonceParamsSchema,
  signerParamsSchema,
  speedUpBodySchema,
} from '@/lib/web/signers/schemas'
import type { ApiOperation } from '../ApiOperation'
import { proposed } from './adminOperations'

const admin = ['admin'] as const

/**
 * The admin API's chain side (docs/api.md "Admin"): a signer's pending nonce in the operator's hands (speed up,
 * cancel with a second admin, resync) and what the chain holds that the desk's records do not.
 */
export const signerOperations: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/api/admin/signers/{address}/nonces/{nonce}/speed-up',
    summary:
      "The worker re-signs a pending nonce's own operation at the chosen fees, at least 12.5% above its newest and under the fee ceiling (audited)",
    roles: admin,
    params: signerNonceParamsSchema,
    body: speedUpBodySchema,
    success: {
      status: 202,
      description: '{ jobId, signerAddress, nonce }: the nonce_speed_up job',
      schema: nonceSpeedUpQueuedSchema,
    },
    errors: { 409: 'conflict: nothing signed at the nonce yet, or its operation is no longer submitted' },
  },
  {
    method: 'post',
    path: '/api/admin/signers/{address}/nonces/{nonce}/cancel',
    summary:
      "Proposes a mint's pending nonce cancelled (a nonce.cancel change with its author's signature); a second admin's signature queues the worker's zero-value self-transfer",
    roles: admin,
    params: signerNonceParamsSchema,
    body: cancelNonceBodySchema,
    success: proposed,
    errors: {
      409: 'conflict: not a mint, or the mint is settled',
      422: 'invalid_signature: not an admin key bound to you, or the change expired',
    },
  },
  {
    method: 'post',
    path: '/api/admin/signers/{address}/resync',
    summary: "The worker reads the signer's nonces again from the chain: its nonce_resync job (audited)",
    roles: admin,
    params: signerParamsSchema,
    success: {
      status: 202,
      description: '{ jobId, signerAddress }: the nonce_resync job',
      schema: signerResyncQueuedSchema,
    },
  },
  {
    method: 'get',
    path: '/api/admin/reconciliation',
    summary:
      "What the chain holds that the desk's records do not: each signer's nonce in Postgres and on chain, the chain events no row accounts for",
    roles: ADMIN_READERS,
    success: { status: 200, description: 'The reconciliation', schema: reconciliationSchema },
  },
  {
    method: 'post',
    path: '/api/admin/reconciliation/{id}/resolve',
    summary: 'Marks an unreconciled chain event resolved, with a note (audited); the reserves still count its supply',
    roles: admin,
    params: unreconciledEventParamsSchema,
    body: resolveUnreconciledBodySchema,
    success: { status: 200, description: 'The event resolved', schema: resolvedEventSchema },
    errors: { 409: 'conflict: resolved already' },
  },
]
