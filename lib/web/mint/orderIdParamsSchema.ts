import { z } from 'zod'

/** `{orderId}` in the path of the order routes (GET /api/gold/mint/{orderId}, its approval, approve and reject). */
export const orderIdParamsSchema = z.object({ orderId: z.string() })
