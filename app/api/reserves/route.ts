// GET /api/reserves - proof of reserve: on-chain total supply beside the fine weight of the bars
// backing it (public, no sign-in; cached a few seconds, rate-limited per client)
import { route } from '@/lib/web/http/route'
import { getReservesRateLimiter, getReservesReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  rateLimit: getReservesRateLimiter(),
  handler: () => getReservesReader().reserves(),
})
