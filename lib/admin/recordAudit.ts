import type { DbOrTx } from '@/db/client'
import { auditLog } from '@/db/schema'
import { isUuid } from '@/lib/mint/isUuid'

/** The admin who acts: their user id and email (the email names them in the timeline). */
export type AdminActor = { id: string; email: string }

export type AdminAction =
  | 'job.retry'
  | 'job.cancel'
  | 'vault.bar_list_import'
  /** four eyes (lib/web/approvals): a request that waits for a second person, and that person's decision */
  | 'mint.approval_requested'
  | 'mint.approve'
  | 'mint.sign'
  | 'user.signing_key_bind'
  | 'mint.reject'
  | 'user.role_change'
  | 'user.disable'
  | 'user.enable'
  /** the mint controls (lib/controls): the recipient allowlist and the limits */
  | 'recipient.add'
  | 'recipient.remove'
  | 'limits.set'
  /** control changes (lib/web/changes): asked for by one admin, confirmed or rejected by another */
  | 'change.propose'
  | 'change.sign'
  | 'change.confirm'
  | 'change.reject'
  /** compliance operations (lib/web/compliance): asked for by an admin, signed or rejected by an approver */
  | 'compliance.request'
  | 'compliance.sign'
  | 'compliance.approve'
  | 'compliance.reject'
  /** webhooks (lib/notifications): subscribe, unsubscribe, send a delivery again */
  | 'webhook.subscribe'
  | 'webhook.delete'
  | 'webhook.redeliver'
  | 'webhook.rotate_secret'
  /** the stop switch (lib/web/signingSwitch): one admin stops, a second confirms the resume */
  | 'signing.stop'
  | 'signing.resume'
  /** redemptions (lib/web/redemptions): staff request, approvers sign or reject */
  | 'redemption.request'
  | 'redemption.sign'
  | 'redemption.approve'
  | 'redemption.reject'
  /** an admin marks a chain event no row accounts for as resolved, with a note (lib/web/reconciliation) */
  | 'reconciliation.resolve'
  /** a signer's pending nonce (lib/web/signers): sped up or resynced by one admin; a cancel is a control change */
  | 'nonce.speed_up'
  | 'nonce.resync'

export type RecordAuditParameters = {
  actor: AdminActor
  action: AdminAction
  targetType:
    | 'job'
    | 'bar_list'
    | 'order'
    | 'user'
    | 'recipient'
    | 'mint_limits'
    | 'webhook'
    | 'webhook_delivery'
    | 'control_change'
    | 'compliance_operation'
    | 'signing'
    | 'redemption'
    | 'unreconciled_event'
    | 'signer'
  targetId: string
  detail?: Record<string, unknown>
}

/** Appends one row to audit_log, inside the caller's transaction (the action and its audit commit together). */
export async function recordAudit(db: DbOrTx, p: RecordAuditParameters): Promise<void> {
  await db.insert(auditLog).values({
    // actor_id is a uuid column: a user id from another identity provider is kept only by email
    actorId: isUuid(p.actor.id) ? p.actor.id : null,
    actorEmail: p.actor.email,
    action: p.action,
    targetType: p.targetType,
    targetId: p.targetId,
    detail: p.detail ?? null,
  })
}
