import { z } from 'zod'
import { JOB_STATES } from '@/lib/jobs/jobStates'

/**
 * The answers of the admin job routes (docs/api.md "Admin") as zod schemas: lib/web/admin/apiTypes.ts infers their
 * types from them, and the OpenAPI document (lib/web/openapi) describes the routes with them. Ids and wei amounts are
 * strings, times ISO 8601 strings.
 */

export const orderSummarySchema = z.object({
  orderId: z.string(),
  status: z.string(),
  to: z.string(),
  /** fine troy ounces, decimal string */
  amount: z.string(),
})

/** One job in the list. */
export const jobSchema = z
  .object({
    id: z.string(),
    task: z.string(),
    state: z.enum(JOB_STATES),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    lastError: z.string().nullable(),
    orderId: z.string().nullable(),
    /** when it runs (or ran) next; null once it left graphile-worker's table */
    runAt: z.string().nullable(),
    lockedAt: z.string().nullable(),
    lockedBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
    order: orderSummarySchema.nullable(),
  })
  .meta({ id: 'Job' })

/** GET /api/admin/jobs */
export const jobListSchema = z.object({ items: z.array(jobSchema), nextCursor: z.string().nullable() })
