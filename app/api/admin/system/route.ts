// GET /api/admin/system - chain settings, signers (nonce in Postgres vs chain, in flight, balance), workers alive (admin)
import { getSystemStatus } from '@/lib/admin/getSystemStatus'
import { systemStatusParameters } from '@/lib/admin/systemStatusParameters'
import { getConfig } from '@/lib/config/getConfig'
import { route } from '@/lib/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ['admin'],
  handler: () => getSystemStatus(getWebDb().db, systemStatusParameters(getConfig('web'))),
})
