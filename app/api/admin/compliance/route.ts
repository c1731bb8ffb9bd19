// GET /api/admin/compliance?status=&limit= - the token's frozen accounts and pause state as the chain says, with
// the compliance operations newest first, each with its signatures and timeline (admin, auditor, approver)

import { COMPLIANCE_READERS } from '@/lib/web/compliance/complianceRoles'
import { getComplianceState } from '@/lib/web/compliance/getComplianceState'
import { complianceQuerySchema } from '@/lib/web/compliance/schemas'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: COMPLIANCE_READERS,
  query: complianceQuerySchema,
  handler: ({ query }) => getComplianceState(getWebDb().db, { ...query, minter: getMinterReader }),
})
