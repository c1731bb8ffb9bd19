// GET /api/admin/audit/export?format=csv|jsonl&from=&to= - the audit rows oldest first, streamed, each with its hash
// and the previous row's, so `npm run audit:verify` (or a script following docs/api.md) checks the chain (admin,
// auditor)
import { exportAuditResponse } from '@/lib/web/audit/exportAuditResponse'
import { exportAuditQuerySchema } from '@/lib/web/audit/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  query: exportAuditQuerySchema,
  handler: ({ query }) => exportAuditResponse(getWebDb().sql, query),
})
