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
