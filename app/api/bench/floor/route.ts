// POST /api/bench/floor - the framework's floor for `npm run bench`: the same route
// wrapper as POST /api/gold/mint (session, role, same-origin check) and a 202, nothing
// else (the body is not read, the database is not touched).
//
// DISABLED unless MINTDESK_BENCH=1 is set in the environment AND the process is not in
// production mode (NODE_ENV=production without MINTDESK_DEV=1): otherwise it answers 404
// as if it did not exist. Only the bench's own local stack (bench/stack) turns it on.
import { getConfig } from '@/lib/config/getConfig'
import { NotFoundError } from '@/lib/errors/resource'
import { toErrorResponse } from '@/lib/errors/toErrorResponse'
import { type NextRouteHandler, route } from '@/lib/http/route'

const floor = route({
  roles: ['staff', 'admin'],
  handler: () => new Response(null, { status: 202, headers: { 'cache-control': 'no-store' } }),
})

export const POST: NextRouteHandler = async (req, ctx) => {
  if (!benchEnabled()) return toErrorResponse(new NotFoundError())
  return floor(req, ctx)
}

function benchEnabled(): boolean {
  if (process.env.MINTDESK_BENCH !== '1') return false
  try {
    return !getConfig('web').production
  } catch {
    return false // a configuration that does not load is no reason to open a bench route
  }
}
