// DELETE /api/admin/recipients/{address} - take an address off
// the recipient allowlist; 404 if not listed; audited (admin)

import { recipientParamsSchema } from '@/lib/controls/schemas'
import { removeAllowedRecipient } from '@/lib/web/controls/removeAllowedRecipient'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const DELETE = route({
  roles: ['admin'],
  params: recipientParamsSchema,
  handler: ({ user, params }) =>
    removeAllowedRecipient(getWebDb().db, { address: params.address, actor: { id: user.id, email: user.email } }),
})
