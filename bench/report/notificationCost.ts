import type { NotificationBacklogResult } from '../pipeline/runNotificationBacklog'
import { STACK_GROUPS } from './drainCpu'

export type NotificationCost = {
  /** email rows sent (one order's event to one address), and the messages they went in */
  emails: number
  messages: number
  webhooks: number
  seconds: number
  /** windows that ended at their timeout, jobs or events still waiting */
  unsettled: number
  /** CPU ms per notification sent, by process group (the stack's and the bench's own: it holds the SMTP sink) */
  msPer: Record<string, number>
  /** the stack's groups together */
  total: number
}

/**
 * The notifications sent in every backlog window of a run, and their
 * CPU per notification (each window's cores x its wall time, summed).
 */
export function notificationCost(windows: readonly NotificationBacklogResult[] = []): NotificationCost | undefined {
  const emails = windows.reduce((a, w) => a + w.emails, 0)
  const messages = windows.reduce((a, w) => a + w.messages, 0)
  const webhooks = windows.reduce((a, w) => a + w.webhooks, 0)
  const sent = emails + webhooks
  if (sent === 0) return undefined
  const msPer: Record<string, number> = {}
  for (const g of [...STACK_GROUPS, 'bench'])
    msPer[g] = windows.reduce((a, w) => a + (w.cpu.byGroup[g] ?? 0) * w.cpu.wallMs, 0) / sent
  return {
    emails,
    messages,
    webhooks,
    seconds: windows.reduce((a, w) => a + w.seconds, 0),
    unsettled: windows.filter((w) => !w.settled).length,
    msPer,
    total: STACK_GROUPS.reduce((a, g) => a + (msPer[g] ?? 0), 0),
  }
}
