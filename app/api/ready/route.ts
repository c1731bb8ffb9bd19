// GET /api/ready - readiness: 200 when the database answers and migrations are current, else 503 not_ready
import { expectedMigrationCount } from '@/db/migrate'
import { NotReadyError } from '@/lib/web/errors/ops'
import { route } from '@/lib/web/http/route'
import { checkReadiness } from '@/lib/web/ops/checkReadiness'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: async () => {
    const readiness = await checkReadiness(getWebDb().sql, {
      expectedMigrations: expectedMigrationCount,
      timeoutMs: 2_000,
    })
    if (!readiness.ready) throw new NotReadyError(`Not ready: ${readiness.reason}.`)
    return { status: 'ready' }
  },
})
