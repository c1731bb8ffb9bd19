// GET /api/admin/recipients - the recipient allowlist, addresses checksummed (admin)
// POST /api/admin/recipients - { address, label }: asks to allow an address to receive mints; 202 { changeId,
// status: "awaiting_second_admin" }, applied when another admin confirms it; 409 if listed; audited (admin)

import { addRecipientBodySchema } from '@/lib/controls/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { getConfig } from '@/lib/web/config/getConfig'
import { listAllowedRecipients } from '@/lib/web/controls/listAllowedRecipients'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => listAllowedRecipients(getWebDb().db),
})

export const POST = route({
  roles: ['admin'],
  body: addRecipientBodySchema,
  handler: async ({ user, body }) =>
    json(
      await proposeControlChange(getWebDb().db, {
        kind: 'recipient.add',
        params: body,
        author: { id: user.id, email: user.email },
        context: { tokenAddress: getConfig('web').tokenAddress },
      }),
      202,
    ),
})
