import { eq, sql } from 'drizzle-orm'
import { getAddress, type Hex, isHex, recoverTypedDataAddress } from 'viem'
import type { Db } from '@/db/client'
import { redemptions } from '@/db/schema'
import { recordAudit } from '@/lib/admin/recordAudit'
import { AlreadySignedError, InvalidSignatureError } from '@/lib/errors/approvals'
import { addJob } from '@/lib/jobs/addJob'
import { redemptionSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { RedemptionSendPayload } from '@/lib/jobs/payloadTypes'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { isUuid } from '@/lib/mint/isUuid'
import { buildRedemptionIntent, buildRedemptionIntentTypedData } from '@/lib/redemption/buildRedemptionIntent'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { AccountFrozenError } from '@/lib/web/errors/redemptions'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRedemption } from './apiTypes'
import { getRedemptionOrThrow } from './getRedemptionOrThrow'
import { lockRedemptionAwaitingApproval } from './lockRedemptionAwaitingApproval'
import { readRedemptionIntent } from './readRedemptionIntent'

export type ApproveRedemptionParameters = {
  redemptionId: string
  /** the approver or admin signing (never the requester) */
  user: Pick<SessionUser, 'id' | 'email' | 'role'>
  /** the user's EIP-712 signature of the redemption's RedemptionIntent (GET .../approval's typedData) */
  signature: string
  minter: MinterReader
  /** attempts of the redemption_send job (MAX_ATTEMPTS) */
  maxAttempts: number
}

/**
 * One approver's signature of a redemption's RedemptionIntent, in ONE transaction with the redemption locked FOR
 * UPDATE (lockRedemptionAwaitingApproval: 404, 403 self_approval, 409 not_awaiting_approval): the intent rebuilt
 * from the redemption, its bars and the chain's redemption address; a signature that recovers to no key bound to
 * this user, or to a key that is not an approver on chain, or an expired intent: 422 invalid_signature; this user
 * or key signed already: 409 already_signed. Once GoldMinter.requiredApprovals(amount) distinct approvers signed
 * (and the holder is not frozen on chain: 422 account_frozen), the redemption is `pending` with its
 * redemption_send job added in the same transaction. Returns the redemption, read after the commit.
 */
export async function approveRedemption(db: Db, p: ApproveRedemptionParameters): Promise<ApiRedemption> {
  if (!isUuid(p.redemptionId)) throw new NotFoundError({ what: 'Redemption' })
  const redemptionId = p.redemptionId.toLowerCase()
  if (!isHex(p.signature) || p.signature.length < 132)
    throw new InvalidSignatureError('The signature is not a 65-byte hex signature.')
  const signature = p.signature as Hex
  const intentInput = await readRedemptionIntent(db, { redemptionId, minter: p.minter })
  if (!intentInput) throw new NotFoundError({ what: 'Redemption' })
  const typedData = buildRedemptionIntentTypedData(p.minter.domain, intentInput)
  const amount = buildRedemptionIntent(intentInput).amount
  const recovered = await recoverTypedDataAddress({ ...typedData, signature }).catch(() => undefined)
  const signer = recovered === undefined ? undefined : getAddress(recovered)
  const [isApprover, required] = await Promise.all([
    signer === undefined ? false : p.minter.isApprover(signer),
    p.minter.requiredApprovals(amount),
  ])

  await db.transaction(async (tx) => {
    const row = await lockRedemptionAwaitingApproval(tx, { redemptionId, user: p.user })
    if (row.intentDeadline.getTime() <= Date.now())
      throw new InvalidSignatureError(`The redemption's intent expired at ${row.intentDeadline.toISOString()}.`)
    const keys = await tx.execute<{ address: string }>(
      sql`select address from user_signing_keys where user_id = ${p.user.id}::uuid`,
    )
    if (!signer || !keys.some((k) => k.address === signer.toLowerCase()))
      throw new InvalidSignatureError(
        "The signature does not recover to a signing key bound to you over this redemption's intent.",
      )
    if (!isApprover) throw new InvalidSignatureError(`Your key ${signer} is not an approver on chain.`)
    const inserted = await tx.execute<{ one: number }>(sql`
      insert into redemption_signatures (redemption_id, user_id, signer_address, signature)
      values (${redemptionId}::uuid, ${p.user.id}::uuid, ${signer.toLowerCase()}, ${signature})
      on conflict do nothing returning 1 as one`)
    if (inserted.length === 0) throw new AlreadySignedError()
    const [{ n } = { n: 0 }] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from redemption_signatures where redemption_id = ${redemptionId}::uuid`,
    )
    const oz = formatOrderAmount(row.amountWei)
    await recordJobEvent(tx, {
      event: 'signed',
      task: TASK.redemptionSend,
      orderId: redemptionId,
      actor: p.user.email,
      detail: `signed by ${p.user.email} with ${signer} (${n} of ${required})`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'redemption.sign',
      targetType: 'redemption',
      targetId: redemptionId,
      detail: { signer, signatures: n, required, amount: oz },
    })
    if (n < required) return

    if (await p.minter.isFrozen(getAddress(row.holderAddress)))
      throw new AccountFrozenError({ address: getAddress(row.holderAddress), path: 'holder' })
    await tx
      .update(redemptions)
      .set({ status: 'pending', updatedAt: sql`now()` })
      .where(eq(redemptions.id, redemptionId))
    await recordJobEvent(tx, {
      event: 'approved',
      task: TASK.redemptionSend,
      orderId: redemptionId,
      actor: p.user.email,
      detail: `approved: ${n} of ${required} approver signatures`,
    })
    await addJob(tx, {
      task: TASK.redemptionSend,
      payload: { redemptionId } satisfies RedemptionSendPayload,
      jobKey: redemptionSendJobKey(redemptionId),
      maxAttempts: p.maxAttempts,
      orderId: redemptionId,
      actor: p.user.email,
      detail: `burn ${oz} oz from the redemption address`,
    })
    await recordAudit(tx, {
      actor: p.user,
      action: 'redemption.approve',
      targetType: 'redemption',
      targetId: redemptionId,
      detail: { amount: oz, signatures: n },
    })
  })
  return getRedemptionOrThrow(db, { redemptionId })
}
