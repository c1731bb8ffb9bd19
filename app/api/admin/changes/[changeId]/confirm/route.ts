// POST /api/admin/changes/{changeId}/confirm - a second admin confirms a control change: it applies now,
// checked again against the state now; one that lives on chain carries { signature } and is sent by the
// worker; 403 self_approval for its author, 409 if not awaiting; audited (admin)
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { changeIdParamsSchema, confirmChangeBodySchema } from '@/lib/web/changes/schemas'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: changeIdParamsSchema,
  body: confirmChangeBodySchema,
  bodyOptional: true,
  handler: ({ user, params, body }) =>
    confirmControlChange(getWebDb().db, {
      changeId: params.changeId,
      confirmer: { id: user.id, email: user.email },
      context: { tokenAddress: getConfig('web').tokenAddress, production: getConfig('web').production },
      onChain: {
        signature: body?.signature,
        minter: getMinterReader,
        maxAttempts: getConfig('web').worker.maxAttempts,
      },
    }),
})
