// POST /api/admin/changes/{changeId}/reject - { reason }: a second admin rejects a control change, nothing
// of it applies; 403 self_approval for its author, 409 if not awaiting; audited (admin)
import { rejectControlChange } from '@/lib/web/changes/rejectControlChange'
import { changeIdParamsSchema, rejectChangeBodySchema } from '@/lib/web/changes/schemas'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: changeIdParamsSchema,
  body: rejectChangeBodySchema,
  handler: ({ user, params, body }) =>
    rejectControlChange(getWebDb().db, {
      changeId: params.changeId,
      rejecter: { id: user.id, email: user.email },
      reason: body.reason,
    }),
})
