// POST /api/admin/signers/{address}/nonces/{nonce}/cancel - { changeId, deadline, signature }: proposes a nonce.cancel
// change signed by its author (typed data from POST /api/admin/changes/typed-data); 202 { changeId, status:
// "awaiting_second_admin" }; once a second admin signs it (POST /api/admin/changes/{changeId}/confirm) the worker
// cancels the mint at the nonce and fills it with a zero-value self-transfer; audited (admin)
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { proposeNonceCancel } from '@/lib/web/signers/proposeNonceCancel'
import { cancelNonceBodySchema, signerNonceParamsSchema } from '@/lib/web/signers/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: signerNonceParamsSchema,
  body: cancelNonceBodySchema,
  handler: async ({ user, params, body }) =>
    json(
      await proposeNonceCancel(getWebDb().db, {
        signerAddress: params.address,
        nonce: params.nonce,
        body,
        author: { id: user.id, email: user.email },
        minter: getMinterReader(),
      }),
      202,
    ),
})
