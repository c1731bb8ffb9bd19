// GET /api/reserves - proof of reserve: on-chain total supply beside
// the fine weight of the bars backing it (public, no sign-in)
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getReservesOrThrow } from '@/lib/web/reserves/getReservesOrThrow'
import { reservesParameters } from '@/lib/web/reserves/reservesParameters'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: () => getReservesOrThrow(getWebDb().db, reservesParameters(getConfig('web'))),
})
