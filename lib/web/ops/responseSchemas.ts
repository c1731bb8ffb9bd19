import { z } from 'zod'

/** GET /api/health: the process lives. */
export const healthSchema = z.object({ status: z.literal('ok') })

/** GET /api/ready: the database answers and its migrations are current. */
export const readySchema = z.object({ status: z.literal('ready') })
