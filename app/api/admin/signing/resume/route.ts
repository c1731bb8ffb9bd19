// POST /api/admin/signing/resume - { reason }: asks to turn the stop switch off; 202 { changeId, status:
// "awaiting_second_admin" }, applied when another admin confirms it; 409 if signing is not stopped (admin)
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { resumeSigningBodySchema } from '@/lib/web/signingSwitch/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  body: resumeSigningBodySchema,
  handler: async ({ user, body }) =>
    json(
      await proposeControlChange(getWebDb().db, {
        kind: 'signing.resume',
        params: body,
        author: { id: user.id, email: user.email },
        context: {},
      }),
      202,
    ),
})
