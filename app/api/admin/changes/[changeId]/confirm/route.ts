// POST /api/admin/changes/{changeId}/confirm - a second admin confirms a control change: it applies now,
// checked again against the state now; 403 self_approval for its author, 409 if not awaiting; audited (admin)
import { confirmControlChange } from '@/lib/web/changes/confirmControlChange'
import { changeIdParamsSchema } from '@/lib/web/changes/schemas'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: changeIdParamsSchema,
  handler: ({ user, params }) =>
    confirmControlChange(getWebDb().db, {
      changeId: params.changeId,
      confirmer: { id: user.id, email: user.email },
      context: { tokenAddress: getConfig('web').tokenAddress, production: getConfig('web').production },
    }),
})
