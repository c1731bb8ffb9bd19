// GET /api/admin/limits - the per-order limit and the rolling 24 h cap
// (fine oz, null: unlimited), with what the cap counts now (admin)
// PUT /api/admin/limits - { maxOrderOz, dailyCapOz }: set both limits; audited (admin)
import { readApiMintLimits } from '@/lib/controls/readApiMintLimits'
import { setMintLimitsBodySchema } from '@/lib/controls/schemas'
import { setMintLimits } from '@/lib/controls/setMintLimits'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ['admin'],
  handler: () => readApiMintLimits(getWebDb().db),
})

export const PUT = route({
  roles: ['admin'],
  body: setMintLimitsBodySchema,
  handler: ({ user, body }) =>
    setMintLimits(getWebDb().db, {
      maxOrderOz: body.maxOrderOz,
      dailyCapOz: body.dailyCapOz,
      actor: { id: user.id, email: user.email },
    }),
})
