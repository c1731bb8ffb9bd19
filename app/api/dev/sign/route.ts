import { getConfig } from '@/lib/web/config/getConfig'
import { signWithDevKey } from '@/lib/web/dev/signWithDevKey'
import { route } from '@/lib/web/http/route'
import { devSignBodySchema } from '@/lib/web/signing/apiTypes'

// POST /api/dev/sign - dev mode only: signs typed data or a text with the signed-in
// user's dev key (404 in production mode, and for users without a dev key)
export const POST = route({
  roles: ['staff', 'approver', 'admin'], // those who sign; an auditor signs nothing
  body: devSignBodySchema,
  handler: ({ user, body }) => signWithDevKey({ production: getConfig('web').production }, { user, body }),
})
