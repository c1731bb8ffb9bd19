// GET /api/reserves/attestation?block=N[&format=json|csv] - the point-in-time attestation pack of block N: supply at
// the block, the bar lists in force then, every backing bar with its order and transaction, the totals; JSON, or
// the bars as CSV (?format=csv or Accept: text/csv); X-Pack-Sha256 is the sha256 of the bytes (public, no sign-in;
// rate-limited per client, a final block's pack kept)

import { route } from '@/lib/web/http/route'
import { attestationResponse } from '@/lib/web/reserves/attestationResponse'
import { attestationQuerySchema } from '@/lib/web/reserves/schemas'
import { getReservesRateLimiter, getReservesReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  rateLimit: getReservesRateLimiter(),
  query: attestationQuerySchema,
  handler: ({ req, query }) =>
    attestationResponse(getReservesReader(), { ...query, accept: req.headers.get('accept') }),
})
