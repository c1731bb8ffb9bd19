import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { notificationEvents } from '@/db/schema'

export type ReopenNotificationEventParameters = { eventId: string }

/**
 * A notify_dispatch job queued before the dispatch was coalesced carries its event's id
 * (payload { eventId }); the migration stamped that event dispatched, so the job re-opens
 * it for the batch dispatch. Dispatching an event twice adds nothing (unique rows).
 */
export async function reopenNotificationEvent(
  db: DbOrTx,
  { eventId }: ReopenNotificationEventParameters,
): Promise<void> {
  await db.update(notificationEvents).set({ dispatchedAt: null }).where(eq(notificationEvents.id, eventId))
}
