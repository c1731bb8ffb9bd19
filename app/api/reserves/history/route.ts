// GET /api/reserves/history?days=30 - the supply beside the backing over the last days, from the
// reconciliation checks (public, no sign-in; cached a few seconds, rate-limited per client)
import { route } from '@/lib/web/http/route'
import { reserveHistoryQuerySchema } from '@/lib/web/reserves/schemas'
import { getReservesRateLimiter, getReservesReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  rateLimit: getReservesRateLimiter(),
  query: reserveHistoryQuerySchema,
  handler: ({ query }) => getReservesReader().history(query),
})
