// POST /api/admin/signing/stop - { reason }: the stop switch, at once, by one admin: no worker reserves a nonce
// or starts a broadcast once it answers (queued work waits, confirmations go on); 423 signing_stopped if it is
// on already; audited (admin)
import { route } from '@/lib/web/http/route'
import { stopSigningBodySchema } from '@/lib/web/signingSwitch/schemas'
import { stopSigning } from '@/lib/web/signingSwitch/stopSigning'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  body: stopSigningBodySchema,
  handler: ({ user, body }) =>
    stopSigning(getWebDb().db, { actor: { id: user.id, email: user.email }, reason: body.reason }),
})
