import { z } from 'zod'

/**
 * The answers of the control-change routes as zod schemas: lib/web/changes/apiTypes.ts infers its types from them,
 * and the OpenAPI document (lib/web/openapi) describes the routes with them.
 */

/** The 202 answer of a route whose change now awaits a second admin. */
export const controlChangeAcceptedSchema = z
  .object({ changeId: z.string(), status: z.literal('awaiting_second_admin') })
  .meta({ id: 'ControlChangeAccepted' })
