// GET|POST /api/auth/* - next-auth: csrf, session, sign-in callbacks, sign-out
import { handlers } from '@/lib/web/auth/nextAuth'

export const { GET, POST } = handlers
