import type { ControlChangeStatus } from '@/db/schema/controlChanges'

/**
 * The JSON shapes of the control changes (docs/api.md "Control changes need a second
 * admin"), as sent on the wire: times ISO 8601, people by email.
 */

/** The 202 answer of a route whose change now awaits a second admin. */
export type ApiControlChangeAccepted = { changeId: string; status: 'awaiting_second_admin' }

/** One control change. */
export type ApiControlChange = {
  changeId: string
  /** `recipient.add`, `recipient.remove`, `limits.set`, `user.role` (more kinds may come) */
  kind: string
  /** the kind's params as asked for (lib/web/changes/controlChangeParams.ts) */
  params: Record<string, unknown>
  /** what it changes, as a sentence for people */
  summary: string
  status: ControlChangeStatus
  requestedBy: string
  requestedAt: string
  /** the second admin who confirmed or rejected it; null while it awaits */
  decidedBy: string | null
  decidedAt: string | null
  /** why it was rejected */
  reason: string | null
}

/** GET /api/admin/changes */
export type ApiControlChangeList = { items: ApiControlChange[]; nextCursor: string | null }
