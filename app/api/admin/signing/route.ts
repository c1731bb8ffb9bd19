// GET /api/admin/signing - the stop switch: { stopped, reason, changedBy, changedAt, auto } (admin, auditor)

import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { readSigningState } from '@/lib/web/signingSwitch/readSigningState'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  handler: () => readSigningState(getWebDb().db),
})
