// GET /api/admin/reconciliation - what the chain holds that the desk's records do not: each signer's nonce in
// Postgres beside the chain's, the chain events no row accounts for (admin, auditor)

import { systemStatusParameters } from '@/lib/web/admin/systemStatusParameters'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { route } from '@/lib/web/http/route'
import { readReconciliation } from '@/lib/web/reconciliation/readReconciliation'
import type { ApiReconciliation } from '@/lib/web/reconciliation/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: async (): Promise<ApiReconciliation> =>
    readReconciliation(getWebDb().db, { chain: systemStatusParameters(getConfig('web')).chain }),
})
