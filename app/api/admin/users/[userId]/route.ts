// PATCH /api/admin/users/{userId} - change a user's role or
// disable/enable them; their sessions stop at once; audited (admin)
import { route } from '@/lib/web/http/route'
import { updateUser } from '@/lib/web/users/updateUser'
import { updateUserSchema, userIdParamsSchema } from '@/lib/web/users/updateUserSchema'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const PATCH = route({
  roles: ['admin'],
  params: userIdParamsSchema,
  body: updateUserSchema,
  handler: ({ params, body, user }) =>
    updateUser(getWebDb().db, { userId: params.userId, change: body, actor: { id: user.id, email: user.email } }),
})
