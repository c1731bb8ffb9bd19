// POST /api/admin/reconciliation/{id}/resolve - marks a chain event no row accounts for as resolved, with a note;
// 404 if unknown, 409 if resolved already; audited (admin)

import { route } from '@/lib/web/http/route'
import { resolveUnreconciledEvent } from '@/lib/web/reconciliation/resolveUnreconciledEvent'
import { resolveUnreconciledBodySchema, unreconciledEventParamsSchema } from '@/lib/web/reconciliation/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  params: unreconciledEventParamsSchema,
  body: resolveUnreconciledBodySchema,
  handler: ({ params, body, user }) =>
    resolveUnreconciledEvent(getWebDb().db, {
      id: params.id,
      note: body.note,
      actor: { id: user.id, email: user.email },
    }),
})
