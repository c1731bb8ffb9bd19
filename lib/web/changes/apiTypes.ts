import type { z } from 'zod'
import type {
  changeApprovalSchema,
  changeToSignSchema,
  changeTypedDataSchema,
  confirmedControlChangeSchema,
  controlChangeAcceptedSchema,
  controlChangeListSchema,
  controlChangeResultSchema,
  controlChangeSchema,
} from './responseSchemas'

/**
 * The JSON shapes of the control changes (docs/api.md "Control changes need a second
 * admin"), as sent on the wire, inferred from their zod schemas (./responseSchemas.ts); the import is type-only.
 * Times ISO 8601, people by email.
 */

/** The 202 answer of a route whose change now awaits a second admin. */
export type ApiControlChangeAccepted = z.infer<typeof controlChangeAcceptedSchema>

/** One control change. */
export type ApiControlChange = z.infer<typeof controlChangeSchema>

/** What a desk change's apply step answers once confirmed (the recipient, the limits, the user, the switch). */
export type ApiControlChangeResult = z.infer<typeof controlChangeResultSchema>

/** POST /api/admin/changes/{changeId}/confirm: the change, applied, and its result (null for one on chain). */
export type ApiConfirmedControlChange = z.infer<typeof confirmedControlChangeSchema>

/** A ControlChange as EIP-712 typed data for eth_signTypedData_v4, numbers as decimal strings. */
export type ApiChangeTypedData = z.infer<typeof changeTypedDataSchema>

/** POST /api/admin/changes/typed-data: what the author signs, with the id and deadline to propose it under. */
export type ApiChangeToSign = z.infer<typeof changeToSignSchema>

/** GET /api/admin/changes/{changeId}/approval: the change's typed data, GoldMinter's threshold, its signatures. */
export type ApiChangeApproval = z.infer<typeof changeApprovalSchema>

/** GET /api/admin/changes */
export type ApiControlChangeList = z.infer<typeof controlChangeListSchema>
