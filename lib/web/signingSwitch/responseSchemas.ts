import { z } from 'zod'

/**
 * The stop switch's answer (docs/api.md "Compliance and the stop switch") as a zod schema: GET /api/admin/signing,
 * POST /api/admin/signing/stop and the system's `signing`; readSigningState.ts infers ApiSigningState from it.
 */
export const signingStateSchema = z
  .object({
    stopped: z.boolean(),
    reason: z.string().nullable(),
    /** who changed it last (an admin's email, or the worker that tripped it on a shortfall) */
    changedBy: z.string().nullable(),
    changedAt: z.string(),
    /** the reserve check stopped it on a shortfall (STOP_ON_SHORTFALL) */
    auto: z.boolean(),
  })
  .meta({ id: 'SigningState' })
