// GET /api/admin/limits - the per-order limit and the rolling 24 h cap
// (fine oz, null: unlimited), with what the cap counts now (admin)
// PUT /api/admin/limits - { maxOrderOz, dailyCapOz }: asks to set both limits; 202 { changeId,
// status: "awaiting_second_admin" }, applied when another admin confirms it; audited (admin)

import { readApiMintLimits } from '@/lib/controls/readApiMintLimits'
import { setMintLimitsBodySchema } from '@/lib/controls/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => readApiMintLimits(getWebDb().db),
})

export const PUT = route({
  roles: ['admin'],
  body: setMintLimitsBodySchema,
  handler: async ({ user, body }) =>
    json(
      await proposeControlChange(getWebDb().db, {
        kind: 'limits.set',
        params: body,
        author: { id: user.id, email: user.email },
        context: { production: getConfig('web').production },
      }),
      202,
    ),
})
