// GET /api/admin/audit?actor=&action=&target=&from=&to=&cursor=&limit= - the audit log newest first, each row with
// its place in the hash chain (admin, auditor)
import { listAudit } from '@/lib/web/audit/listAudit'
import { listAuditQuerySchema } from '@/lib/web/audit/schemas'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  query: listAuditQuerySchema,
  handler: ({ query }) => listAudit(getWebDb().db, query),
})
