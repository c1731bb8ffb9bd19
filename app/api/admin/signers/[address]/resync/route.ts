// POST /api/admin/signers/{address}/resync - the worker reads the signer's nonces again from the chain (its
// nonce_resync job with { signerAddress }); 202 { jobId }; audited (admin)
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { requestSignerResync } from '@/lib/web/signers/requestSignerResync'
import { signerParamsSchema } from '@/lib/web/signers/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: signerParamsSchema,
  handler: async ({ user, params }) =>
    json(
      await requestSignerResync(getWebDb().db, {
        signerAddress: params.address,
        actor: { id: user.id, email: user.email },
      }),
      202,
    ),
})
