// GET /api/gold/recipients - the addresses mints may go to, with their labels: the mint form's picker (staff,
// approver, admin, auditor); the allowlist's changes stay the admins' (/api/admin/recipients)
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'
import { listRecipientChoices } from '@/lib/web/controls/listRecipientChoices'
import { route } from '@/lib/web/http/route'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ORDER_READERS,
  handler: () => listRecipientChoices(getWebDb().db),
})
