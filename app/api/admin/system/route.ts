// GET /api/admin/system - chain settings, signers (nonce in
// Postgres vs chain, in flight, balance), workers alive (admin)

import type { ApiSystemAnswer } from '@/lib/web/admin/apiTypes'
import { readSystemStatus } from '@/lib/web/admin/readSystemStatus'
import { systemStatusParameters } from '@/lib/web/admin/systemStatusParameters'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  // transport: what carries mint_send (QUEUE_TRANSPORT)
  handler: async (): Promise<ApiSystemAnswer> => ({
    ...(await readSystemStatus(getWebDb().db, systemStatusParameters(getConfig('web')))),
    transport: getConfig('web').queueTransport,
  }),
})
