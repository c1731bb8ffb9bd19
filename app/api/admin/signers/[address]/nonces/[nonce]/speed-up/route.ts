// POST /api/admin/signers/{address}/nonces/{nonce}/speed-up - { maxFeePerGas, maxPriorityFeePerGas } (wei, decimal
// strings): the worker re-signs the nonce's own operation at those fees, under the fee ceiling; 202 { jobId };
// audited (admin)
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { requestNonceSpeedUp } from '@/lib/web/signers/requestNonceSpeedUp'
import { signerNonceParamsSchema, speedUpBodySchema } from '@/lib/web/signers/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: signerNonceParamsSchema,
  body: speedUpBodySchema,
  handler: async ({ user, params, body }) =>
    json(
      await requestNonceSpeedUp(getWebDb().db, {
        signerAddress: params.address,
        nonce: params.nonce,
        ...body,
        actor: { id: user.id, email: user.email },
        ceiling: getConfig('web').worker.feeCeiling,
        maxAttempts: getConfig('web').worker.maxAttempts,
      }),
      202,
    ),
})
