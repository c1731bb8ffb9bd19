import { z } from 'zod'
import { errorStatus } from '@/lib/errors/http'

const errorCodes = Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]]

/**
 * The one shape of every error answer (docs/api.md "Errors"), as toErrorResponse writes it: a stable code from
 * lib/errors/http.ts, a human sentence, and the request's issues when it was refused for them.
 */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' })

export type ApiError = z.infer<typeof apiErrorSchema>
