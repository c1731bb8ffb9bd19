/**
 * THE task identifiers and job keys of mintdesk's jobs (nowhere else writes them out),
 * shared by the web (which adds `mint_send` with an order, and retries or cancels jobs)
 * and the worker (which runs them). A job key makes a job unique in graphile-worker: one
 * waiting job per key.
 */

export const TASK = {
  mintSend: 'mint_send',
  /** one confirmed control change that lives on chain: its applyControlChange call through the send pipeline */
  controlSend: 'control_send',
  /** one signed redemption: its GoldMinter.burn through the send pipeline */
  redemptionSend: 'redemption_send',
  /** one signed compliance operation: its GoldMinter.setFrozen or setPaused through the send pipeline */
  complianceSend: 'compliance_send',
  /** one across all workers: records the transfers to the redemption address that have their confirmations */
  depositWatch: 'deposit_watch',
  /**
   * one order alone: a mint the signer's confirmer hands over (revert, nonce used by another,
   * no Minted event), its dead letter
   */
  orderConfirm: 'order_confirm',
  /**
   * one per signer: follows every submitted mint of the signer, a pass at each new block
   * (docs/decisions/030-one-confirmer-per-signer.md)
   */
  signerConfirm: 'signer_confirm',
  nonceHealth: 'nonce_health',
  /**
   * one nonce cancel two admins signed (a nonce.cancel change): the mint at it cancelled, the nonce released to be
   * filled
   */
  nonceCancel: 'nonce_cancel',
  /** an admin's speed-up of one signer's pending nonce: its own transaction re-signed at the chosen fees */
  nonceSpeedUp: 'nonce_speed_up',
  /**
   * payload `{ signerAddress?: string }`: brings one signer's (or every signer's) next_nonce up to the chain's
   * count and reconciles the chain's events from the stored cursor (docs/decisions/063-nonce-resync-after-restore.md);
   * the one without a signer is periodic (job key nonce_resync), an admin may add either
   */
  nonceResync: 'nonce_resync',
  reserveCheck: 'reserve_check',
  /** notifications: fan the undispatched events out (its name is also written in SQL by public.record_mint_event) */
  notifyDispatch: 'notify_dispatch',
  /** one webhook delivery (event, endpoint) */
  webhookDeliver: 'webhook_deliver',
  /** one message to one address: its email rows, several events in a digest */
  emailSend: 'email_send',
} as const

export type TaskName = (typeof TASK)[keyof typeof TASK]

/**
 * Task identifiers of the previous release -> today's (migration 0020 renamed the queued jobs,
 * their keys and their history). The worker still runs a job queued under an old name as
 * today's task: during a deploy's roll, workers of the previous release go on adding them.
 * Remove with the release after, together with a migration that renames what they added.
 */
export const TASKS_RENAMED: Readonly<Record<string, TaskName>> = {
  mint_confirm: TASK.orderConfirm,
  mint_confirmer: TASK.signerConfirm,
}

/**
 * THE housekeeping tasks: the worker's own upkeep, run on a timer or once per burst of events, never a step an
 * admin follows an order through. The jobs list hides their routine jobs unless asked (their retrying and dead
 * jobs stay listed), and the worker logs their start and success at debug.
 */
export const HOUSEKEEPING_TASKS: readonly TaskName[] = [
  TASK.nonceHealth,
  TASK.nonceResync,
  TASK.reserveCheck,
  TASK.notifyDispatch,
  TASK.depositWatch,
]

/** whether a task is housekeeping (HOUSEKEEPING_TASKS); a task queued under an old name is not */
export function isHousekeepingTask(task: string): boolean {
  return (HOUSEKEEPING_TASKS as readonly string[]).includes(task)
}

/** tasks whose job belongs to one order (payload `{ orderId }`) */
export const ORDER_TASKS: readonly string[] = [TASK.mintSend, TASK.orderConfirm]

export function mintSendJobKey(orderId: string): string {
  return `${TASK.mintSend}:${orderId}`
}

export function controlSendJobKey(changeId: string): string {
  return `${TASK.controlSend}:${changeId}`
}

export function redemptionSendJobKey(redemptionId: string): string {
  return `${TASK.redemptionSend}:${redemptionId}`
}

export function complianceSendJobKey(operationId: string): string {
  return `${TASK.complianceSend}:${operationId}`
}

export function nonceCancelJobKey(changeId: string): string {
  return `${TASK.nonceCancel}:${changeId}`
}

/** one waiting speed-up per nonce: a second replaces the first's fees (lower case signer) */
export function nonceSpeedUpJobKey(signerAddress: string, nonce: number): string {
  return `${TASK.nonceSpeedUp}:${signerAddress.toLowerCase()}:${nonce}`
}

export function orderConfirmJobKey(orderId: string): string {
  return `${TASK.orderConfirm}:${orderId}`
}

/** the confirmer of one signer (checksummed or not: the key is lower case) */
export function signerConfirmJobKey(signerAddress: string): string {
  return `${TASK.signerConfirm}:${signerAddress.toLowerCase()}`
}

/** the confirmer runs before waiting mint_send jobs (graphile-worker runs lower priority numbers first) */
export const SIGNER_CONFIRM_PRIORITY = -10

/** one nonce health job across all workers */
export const NONCE_HEALTH_JOB_KEY = TASK.nonceHealth

/** the periodic nonce resync of every signer, one across all workers */
export const NONCE_RESYNC_JOB_KEY = TASK.nonceResync

/** a resync of one signer asked for now (a broadcast answered "nonce too low"): one waiting job per signer */
export function nonceResyncJobKey(signerAddress: string): string {
  return `${TASK.nonceResync}:${signerAddress.toLowerCase()}`
}

/** one reserve reconciliation job across all workers */
export const RESERVE_CHECK_JOB_KEY = TASK.reserveCheck

/** one deposit watcher across all workers */
export const DEPOSIT_WATCH_JOB_KEY = TASK.depositWatch

/** graphile-worker flag of every notification job (a worker started with forbiddenFlags ['notify'] runs none) */
export const NOTIFY_JOB_FLAG = 'notify'

/** notification jobs run after ready mint jobs (graphile-worker runs lower priority numbers first) */
export const NOTIFY_JOB_PRIORITY = 10

/**
 * THE dispatch job of notifications (docs/decisions/033-notifications.md): one key for all
 * events, so a burst of confirmations updates one waiting job (written in SQL by
 * public.record_mint_event; its run fans out every undispatched event)
 */
export const NOTIFY_DISPATCH_JOB_KEY = TASK.notifyDispatch

export function webhookDeliverJobKey(deliveryId: string): string {
  return `${TASK.webhookDeliver}:${deliveryId}`
}

export function emailSendJobKey(emailId: string): string {
  return `${TASK.emailSend}:${emailId}`
}

/**
 * The graphile-worker queue (lane) of a delivery or an email: a queue runs one job at a
 * time across all workers, so at most `lanes` deliveries and `lanes` emails run at once
 * (NOTIFY_CONCURRENCY), whatever the number of workers: a dead endpoint holds one lane,
 * never the mint jobs' slots. Lanes by endpoint (by address for email), so one endpoint's
 * deliveries never overtake each other.
 */
export function notifyQueueName(kind: 'webhook' | 'email', key: string, lanes: number): string {
  let hash = 0
  for (const c of key) hash = (hash * 31 + c.charCodeAt(0)) >>> 0
  return `notify_${kind}:${hash % Math.max(1, lanes)}`
}
