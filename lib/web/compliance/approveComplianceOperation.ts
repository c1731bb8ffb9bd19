import { eq, sql } from 'drizzle-orm'
import { getAddress, type Hex, isHex } from 'viem'
import type { Db } from '@/db/client'
import { complianceOperations } from '@/db/schema/compliance'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { AlreadySignedError, InvalidSignatureError } from '@/lib/errors/approvals'
import { addJob } from '@/lib/jobs/addJob'
import { complianceSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { ComplianceSendPayload } from '@/lib/jobs/payloadTypes'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { isUuid } from '@/lib/mint/isUuid'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiComplianceOperation } from './apiTypes'
import { getComplianceOperationOrThrow } from './getComplianceOperationOrThrow'
import { judgeComplianceSignature } from './judgeComplianceSignature'
import { lockOperationAwaitingApproval } from './lockOperationAwaitingApproval'

export type ApproveComplianceOperationParameters = {
  /** as given in the URL; what is not a uuid is not found */
  operationId: string
  /** the approver or admin signing (never the requester) */
  user: AdminActor
  /** the user's EIP-712 signature of the operation's intent (GET .../approval's typedData) */
  signature: string
  minter: MinterReader
  /** attempts of the compliance_send job: the caller's configuration (MAX_ATTEMPTS) */
  maxAttempts: number
}

/**
 * One approver's signature of a compliance operation's FreezeIntent or PauseIntent, in ONE transaction with the
 * operation locked FOR UPDATE (lockOperationAwaitingApproval: 404, 403 self_approval, 409 not_awaiting_approval):
 * 1. the signature judged by the chain's word (judgeComplianceSignature: a key bound to this user, an approver
 *    on chain, before the deadline; else 422 invalid_signature); this user or this key signed already: 409
 *    already_signed;
 * 2. stored ('signed' event, `compliance.sign` audit row);
 * 3. once GoldMinter's complianceApprovals distinct approvers signed: `pending`, with its compliance_send job
 *    added in the same transaction (the outbox), the 'approved' event and a `compliance.approve` audit row.
 * Returns the operation as GET /api/admin/compliance lists it, read after the commit.
 */
export async function approveComplianceOperation(
  db: Db,
  p: ApproveComplianceOperationParameters,
): Promise<ApiComplianceOperation> {
  if (!isUuid(p.operationId)) throw new NotFoundError({ what: 'Operation' })
  const operationId = p.operationId.toLowerCase()
  if (!isHex(p.signature) || p.signature.length < 132)
    throw new InvalidSignatureError('The signature is not a 65-byte hex signature.')
  const signature = p.signature as Hex
  const required = await p.minter.complianceApprovals()

  await db.transaction(async (tx) => {
    const row = await lockOperationAwaitingApproval(tx, { operationId, user: p.user })
    const signer = await judgeComplianceSignature(tx, {
      operation: row,
      signature,
      userId: p.user.id,
      minter: p.minter,
    })
    const inserted = await tx.execute<{ one: number }>(sql`
      insert into compliance_signatures (operation_id, user_id, signer_address, signature)
      values (${operationId}::uuid, ${p.user.id}::uuid, ${signer.toLowerCase()}, ${signature})
      on conflict do nothing returning 1 as one`)
    if (inserted.length === 0) throw new AlreadySignedError({ what: 'operation' })
    const [{ n } = { n: 0 }] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from compliance_signatures where operation_id = ${operationId}::uuid`,
    )
    const detail = { action: row.action, account: row.account, signer: getAddress(signer), signatures: n, required }
    await recordJobEvent(tx, {
      event: 'signed',
      task: TASK.complianceSend,
      orderId: operationId,
      actor: p.user.email,
      detail: `signed by ${p.user.email} with ${getAddress(signer)} (${n} of ${required})`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'compliance.sign',
      targetType: 'compliance_operation',
      targetId: operationId,
      detail,
    })
    if (n < required) return

    await tx
      .update(complianceOperations)
      .set({ status: 'pending', updatedAt: new Date() })
      .where(eq(complianceOperations.id, operationId))
    await recordJobEvent(tx, {
      event: 'approved',
      task: TASK.complianceSend,
      orderId: operationId,
      actor: p.user.email,
      detail: `approved: ${n} of ${required} approver signatures`,
    })
    const { jobId } = await addJob(tx, {
      task: TASK.complianceSend,
      payload: { operationId } satisfies ComplianceSendPayload,
      jobKey: complianceSendJobKey(operationId),
      maxAttempts: p.maxAttempts,
      orderId: operationId,
      actor: p.user.email,
      detail: row.account ? `${row.action} ${getAddress(row.account)}` : row.action,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'compliance.approve',
      targetType: 'compliance_operation',
      targetId: operationId,
      detail: { ...detail, jobId: jobId.toString() },
    })
  })

  return getComplianceOperationOrThrow(db, { operationId })
}
