/**
 * The payloads of the tasks the web adds, as types: the web builds them, the worker checks
 * them when the job runs with the schema its task file declares (worker/tasks/<task>.ts,
 * held to the type here with `satisfies`), because a queued payload may come from older code.
 */

/** mint_send: the order it sends (job key mint_send:<orderId>; lib/web/queue/mintSendJob.ts) */
export type MintSendPayload = { orderId: string }

/** control_send: the confirmed on-chain control change it sends (job key control_send:<changeId>) */
export type ControlSendPayload = { changeId: string }

/** redemption_send: one signed redemption's burn, queued by the web with its last signature */
export type RedemptionSendPayload = { redemptionId: string }
/** compliance_send: the signed compliance operation it sends (job key compliance_send:<operationId>) */
export type ComplianceSendPayload = { operationId: string }

/**
 * webhook_deliver: one delivery (event, endpoint); the web adds one to redeliver
 * (lib/web/notifications/redeliverWebhook.ts)
 */
export type WebhookDeliverPayload = { deliveryId: string }

/** nonce_cancel: the nonce.cancel change two admins signed (job key nonce_cancel:<changeId>) */
export type NonceCancelPayload = { changeId: string }

/**
 * nonce_speed_up: an admin's chosen fees (wei, decimal strings) for one signer's pending nonce; the worker re-signs
 * that nonce's own operation, re-derived, under the fee ceiling (job key nonce_speed_up:<signer>:<nonce>)
 */
export type NonceSpeedUpPayload = {
  signerAddress: string
  nonce: number
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  /** the admin who asked, for the timeline */
  requestedBy: string
}
