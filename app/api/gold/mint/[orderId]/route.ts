import { z } from 'zod'
import { getDb } from '@/db'
import { route } from '@/lib/http/route'
import { getMintOrderOrThrow } from '@/lib/mint/getMintOrderOrThrow'

// GET /api/gold/mint/{orderId} - one order with its proof, transaction and timeline (owner, admin)
export const GET = route({
  roles: ['staff', 'admin'],
  params: z.object({ orderId: z.string() }),
  handler: ({ user, params }) => getMintOrderOrThrow(getDb().db, { orderId: params.orderId, user }),
})
