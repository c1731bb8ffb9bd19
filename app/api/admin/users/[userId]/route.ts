// PATCH /api/admin/users/{userId} - { role }: asks to change a user's role, 202 { changeId, status:
// "awaiting_second_admin" }, applied when another admin confirms it; { disabled }: disables or enables them
// at once, their sessions stop; audited (admin)
import { proposeControlChange } from '@/lib/web/changes/proposeControlChange'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { updateUser } from '@/lib/web/users/updateUser'
import { updateUserSchema, userIdParamsSchema } from '@/lib/web/users/updateUserSchema'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const PATCH = route({
  roles: ['admin'],
  params: userIdParamsSchema,
  body: updateUserSchema,
  handler: async ({ params, body, user }) => {
    const actor = { id: user.id, email: user.email }
    if (body.role === undefined)
      return updateUser(getWebDb().db, { userId: params.userId, change: { disabled: body.disabled }, actor })
    const change = { kind: 'user.role', params: { userId: params.userId, role: body.role } }
    return json(await proposeControlChange(getWebDb().db, { ...change, author: actor, context: {} }), 202)
  },
})
