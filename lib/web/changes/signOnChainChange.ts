import { eq, sql } from 'drizzle-orm'
import { getAddress, type Hex } from 'viem'
import type { Tx } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { AlreadySignedError } from '@/lib/errors/approvals'
import { addJob } from '@/lib/jobs/addJob'
import { controlSendJobKey, nonceCancelJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { ControlSendPayload, NonceCancelPayload } from '@/lib/jobs/payloadTypes'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { ValidationError } from '@/lib/web/errors/request'
import { judgeChangeSignature } from './judgeChangeSignature'
import { parseOnChainChange } from './proposeOnChainChange'

export type SignOnChainChangeParameters = {
  /** the change, locked awaiting a second admin by the caller (lockAwaitingChange) */
  row: typeof controlChanges.$inferSelect
  confirmer: AdminActor
  /** the confirmer's EIP-712 signature of the change's ControlChange */
  signature: string | undefined
  minter: MinterReader
  /** attempts of the control_send job (MAX_ATTEMPTS) */
  maxAttempts: number
}

/**
 * A second admin's signature of a change that lives on chain, in the confirming transaction: judged
 * by the chain's word (judgeChangeSignature), stored (the same admin or key twice: 409
 * already_signed). Once GoldMinter's admin threshold of admins signed, the change is `pending`,
 * decided by this admin, with its control_send job added in the same transaction; the worker relays
 * it and GoldMinter applies it. Fewer: it stays awaiting another admin. Returns the status.
 */
export async function signOnChainChange(
  tx: Tx,
  p: SignOnChainChangeParameters,
): Promise<'pending' | 'awaiting_second_admin'> {
  const { row } = p
  if (!p.signature)
    throw new ValidationError([{ path: 'signature', message: 'this change lives on chain: sign its typed data' }])
  if (!row.deadline) throw new Error(`control change ${row.id} lives on chain and has no deadline`)
  const change = parseOnChainChange({ kind: row.kind, params: row.params })
  const signature = p.signature as Hex
  const signer = await judgeChangeSignature(tx, {
    changeId: row.id,
    change,
    deadline: row.deadline,
    signature,
    userId: p.confirmer.id,
    minter: p.minter,
  })
  const inserted = await tx.execute<{ one: number }>(sql`
    insert into control_change_signatures (change_id, user_id, signer_address, signature)
    values (${row.id}::uuid, ${p.confirmer.id}::uuid, ${signer.toLowerCase()}, ${signature})
    on conflict do nothing returning 1 as one`)
  if (inserted.length === 0) throw new AlreadySignedError({ what: 'change' })
  const [{ n } = { n: 0 }] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from control_change_signatures where change_id = ${row.id}::uuid`,
  )
  const required = await p.minter.adminThreshold()
  const detail = { kind: change.kind, params: change.params, signer: getAddress(signer), signatures: n, required }
  if (n < required) {
    await recordAudit(tx, {
      actor: p.confirmer,
      action: 'change.sign',
      targetType: 'control_change',
      targetId: row.id,
      detail,
    })
    return 'awaiting_second_admin'
  }
  await tx
    .update(controlChanges)
    .set({
      status: 'pending',
      decidedById: p.confirmer.id,
      decidedByEmail: p.confirmer.email,
      decidedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(controlChanges.id, row.id))
  // a nonce's cancel is the worker's to apply (nonce_cancel), never GoldMinter's (decision 064)
  const deskSigned = change.kind === 'nonce.cancel'
  await addJob(tx, {
    task: deskSigned ? TASK.nonceCancel : TASK.controlSend,
    payload: { changeId: row.id } satisfies ControlSendPayload & NonceCancelPayload,
    jobKey: deskSigned ? nonceCancelJobKey(row.id) : controlSendJobKey(row.id),
    maxAttempts: p.maxAttempts,
    orderId: row.id,
    actor: p.confirmer.email,
    detail: `${change.kind}: ${n} of ${required} admin signatures`,
  })
  await recordAudit(tx, {
    actor: p.confirmer,
    action: 'change.confirm',
    targetType: 'control_change',
    targetId: row.id,
    detail: { ...detail, requestedBy: row.authorEmail },
  })
  return 'pending'
}
