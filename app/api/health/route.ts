// GET /api/health - liveness: 200 while the process lives (no database, no auth)
import { route } from '@/lib/web/http/route'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: () => ({ status: 'ok' }),
})
