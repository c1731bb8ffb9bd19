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
