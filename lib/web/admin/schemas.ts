import { z } from 'zod'
import { JOB_STATES, RETRYABLE_JOB_STATES } from '@/lib/jobs/jobStates'
import { MAX_QUERY_LENGTH } from './classifyJobQuery'
import { HOUSEKEEPING_FILTERS, MAX_JOBS_PAGE } from './listJobs'
import { MAX_RETRY_BATCH } from './retryJobs'

/** The zod schemas of the admin routes' inputs (params, query strings, bodies). */

const jobIdText = z.string().regex(/^\d{1,18}$/, 'a job id is a positive integer')

/** `{jobId}` in a route path; a mismatch answers 404 (the URL names no job). */
export const jobIdParamsSchema = z.object({ jobId: jobIdText.transform((s) => BigInt(s)) })

/** An empty query value (`?state=`) means "no filter", as a form sends it. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

/**
 * GET /api/admin/jobs?state=&task=&q=&cursor=&limit=&housekeeping= ; `housekeeping` defaults to `hide` (the
 * housekeeping tasks' routine jobs left out, lib/web/admin/listJobs.ts)
 */
export const listJobsQuerySchema = z.object({
  state: optional(z.enum(JOB_STATES)),
  task: optional(z.string().max(128)),
  q: optional(z.string().max(MAX_QUERY_LENGTH)),
  cursor: optional(z.string().max(100)),
  limit: optional(z.coerce.number().int().min(1).max(MAX_JOBS_PAGE)),
  housekeeping: z.preprocess((v) => (v === '' ? undefined : v), z.enum(HOUSEKEEPING_FILTERS).default('hide')),
})

const jobIdValue = z
  .union([jobIdText, z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => BigInt(v))

/** POST /api/admin/jobs/retry: `{ jobIds: [...] }` or `{ state: "dead", task?: "..." }` */
export const bulkRetryBodySchema = z.union([
  z.strictObject({ jobIds: z.array(jobIdValue).min(1).max(MAX_RETRY_BATCH) }),
  z.strictObject({ state: z.enum(RETRYABLE_JOB_STATES), task: z.string().min(1).max(128).optional() }),
])
