import { bindSigningKey } from '@/lib/web/approvals/bindSigningKey'
import { bindSigningKeySchema } from '@/lib/web/approvals/bindSigningKeySchema'
import { getSigningKeyChallenge } from '@/lib/web/approvals/getSigningKeyChallenge'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

// GET /api/me/signing-key - the text a key personal_signs to be bound to the signed-in user
export const GET = route({
  roles: ['staff', 'approver', 'admin'],
  handler: ({ user }) => getSigningKeyChallenge(getWebDb().db, { user }),
})

// POST /api/me/signing-key { address, signature } - binds the key to the signed-in user (audited)
export const POST = route({
  roles: ['staff', 'approver', 'admin'],
  body: bindSigningKeySchema,
  handler: ({ user, body }) =>
    bindSigningKey(getWebDb().db, {
      user,
      address: body.address,
      signature: body.signature,
      production: getConfig('web').production,
    }),
})
