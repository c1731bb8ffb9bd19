// GET /api/ready - readiness: 200 when the database answers and migrations are current, else 503 not_ready
import { getDb } from '@/db'
import { expectedMigrationCount } from '@/db/migrate'
import { NotReadyError } from '@/lib/errors/ops'
import { route } from '@/lib/http/route'
import { checkReadiness } from '@/lib/ops/checkReadiness'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: async () => {
    const readiness = await checkReadiness(getDb().sql, { expectedMigrations: expectedMigrationCount, timeoutMs: 2_000 })
    if (!readiness.ready) throw new NotReadyError(`Not ready: ${readiness.reason}.`)
    return { status: 'ready' }
  },
})
