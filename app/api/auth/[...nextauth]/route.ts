// GET|POST /api/auth/* - next-auth: csrf, session, sign-in callbacks, sign-out
import { handlers } from '@/auth'

export const { GET, POST } = handlers
