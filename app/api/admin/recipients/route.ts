// GET /api/admin/recipients - the recipient allowlist, addresses checksummed (admin)
// POST /api/admin/recipients - { address, label }: allow an address to receive mints; 409 if listed; audited (admin)

import { addRecipientBodySchema } from '@/lib/controls/schemas'
import { getConfig } from '@/lib/web/config/getConfig'
import { addAllowedRecipient } from '@/lib/web/controls/addAllowedRecipient'
import { listAllowedRecipients } from '@/lib/web/controls/listAllowedRecipients'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ['admin'],
  handler: () => listAllowedRecipients(getWebDb().db),
})

export const POST = route({
  roles: ['admin'],
  body: addRecipientBodySchema,
  handler: async ({ user, body }) =>
    json(
      await addAllowedRecipient(getWebDb().db, {
        address: body.address,
        label: body.label,
        actor: { id: user.id, email: user.email },
        tokenAddress: getConfig('web').tokenAddress,
      }),
      201,
    ),
})
