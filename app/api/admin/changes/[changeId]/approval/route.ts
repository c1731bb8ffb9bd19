// GET /api/admin/changes/{changeId}/approval - a change that lives on chain as EIP-712 typed data, GoldMinter's
// admin threshold and the signatures so far; 404 for a change of the desk's own rows (admin, auditor)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getChangeApprovalOrThrow } from '@/lib/web/changes/getChangeApprovalOrThrow'
import { changeIdParamsSchema } from '@/lib/web/changes/schemas'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  params: changeIdParamsSchema,
  handler: ({ params }) =>
    getChangeApprovalOrThrow(getWebDb().db, { changeId: params.changeId, minter: getMinterReader() }),
})
