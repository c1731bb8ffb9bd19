// GET /api/admin/changes?status=&cursor=&limit= - control changes, newest first, each with who asked,
// what it changes and who decided it (admin)
// POST /api/admin/changes - { kind, params, changeId, deadline, signature }: proposes a change that lives on
// chain with the author's signature of its typed data (POST .../typed-data); 202 { changeId, status:
// "awaiting_second_admin" }, sent by the worker once another admin confirms it with theirs; audited (admin)
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { listControlChanges } from '@/lib/web/changes/listControlChanges'
import { proposeOnChainChange } from '@/lib/web/changes/proposeOnChainChange'
import { listChangesQuerySchema, proposeOnChainChangeBodySchema } from '@/lib/web/changes/schemas'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: ADMIN_READERS,
  query: listChangesQuerySchema,
  handler: ({ query }) => listControlChanges(getWebDb().db, query),
})

export const POST = route({
  roles: ['admin'],
  body: proposeOnChainChangeBodySchema,
  handler: async ({ user, body }) =>
    json(
      await proposeOnChainChange(getWebDb().db, {
        body,
        author: { id: user.id, email: user.email },
        minter: getMinterReader(),
      }),
      202,
    ),
})
