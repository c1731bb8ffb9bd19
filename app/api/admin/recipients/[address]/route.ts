// DELETE /api/admin/recipients/{address} - asks to take an address off the recipient allowlist; 202
// { changeId, status: "awaiting_second_admin" }, applied when another admin confirms it; 404 if not
// listed; audited (admin)

import { recipientParamsSchema } from '@/lib/controls/schemas'
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const DELETE = route({
  roles: ['admin'],
  params: recipientParamsSchema,
  handler: async ({ user, params }) =>
    json(
      await proposeControlChange(getWebDb().db, {
        kind: 'recipient.remove',
        params: { address: params.address },
        author: { id: user.id, email: user.email },
        context: {},
      }),
      202,
    ),
})
