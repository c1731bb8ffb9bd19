/**
 * THE task identifiers and job keys of mintdesk's jobs (nowhere else writes them out),
 * shared by the web (which adds `mint_send` with an order, and retries or cancels jobs)
 * and the worker (which runs them). A job key makes a job unique in graphile-worker: one
 * waiting job per key.
 */

export const TASK = {
  mintSend: 'mint_send',
  mintConfirm: 'mint_confirm',
  nonceHealth: 'nonce_health',
  reserveCheck: 'reserve_check',
  /** notifications (issue 16): fan an event out (its name is also written in SQL by public.record_mint_event) */
  notifyDispatch: 'notify_dispatch',
  /** one webhook delivery (event, endpoint) */
  webhookDeliver: 'webhook_deliver',
  /** one email (event, address) */
  emailSend: 'email_send',
} as const

export type TaskName = (typeof TASK)[keyof typeof TASK]

/** tasks whose job belongs to one order (payload `{ orderId }`) */
export const MINT_TASKS: readonly string[] = [TASK.mintSend, TASK.mintConfirm]

export function mintSendJobKey(orderId: string): string {
  return `${TASK.mintSend}:${orderId}`
}

export function mintConfirmJobKey(orderId: string): string {
  return `${TASK.mintConfirm}:${orderId}`
}

/** one nonce health job across all workers */
export const NONCE_HEALTH_JOB_KEY = TASK.nonceHealth

/** one reserve reconciliation job across all workers */
export const RESERVE_CHECK_JOB_KEY = TASK.reserveCheck

/** graphile-worker flag of every notification job: a worker forbids it while NOTIFY_CONCURRENCY of them run */
export const NOTIFY_JOB_FLAG = 'notify'

/** notification jobs run after ready mint jobs (graphile-worker runs lower priority numbers first) */
export const NOTIFY_JOB_PRIORITY = 10

export function webhookDeliverJobKey(deliveryId: string): string {
  return `${TASK.webhookDeliver}:${deliveryId}`
}

export function emailSendJobKey(emailId: string): string {
  return `${TASK.emailSend}:${emailId}`
}
