// GET /api/reserves/lookup?address=0x... | ?tx=0x... - the confirmed mints to an address (or in a
// transaction) and the bars backing each (public, no sign-in; cached a few seconds, rate-limited
// per client)
import { route } from '@/lib/web/http/route'
import { reserveLookupQuerySchema } from '@/lib/web/reserves/schemas'
import { getReservesRateLimiter, getReservesReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  rateLimit: getReservesRateLimiter(),
  query: reserveLookupQuerySchema,
  handler: ({ query }) => getReservesReader().lookup(query),
})
