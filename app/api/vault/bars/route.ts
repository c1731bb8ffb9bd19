// GET /api/vault/bars?vault=&status=&q=&cursor=&limit= - the vault inventory, bar by bar (staff, approver, admin)
import { ORDER_READERS } from '@/lib/web/auth/SessionUser'

import { route } from '@/lib/web/http/route'
import { listVaultBars } from '@/lib/web/vault/listVaultBars'
import { listVaultBarsQuerySchema } from '@/lib/web/vault/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ORDER_READERS,
  query: listVaultBarsQuerySchema,
  handler: ({ user, query }) => listVaultBars(getWebDb().db, { user, ...query }),
})
