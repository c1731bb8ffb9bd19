import type { z } from 'zod'
import type { Db } from '@/db/client'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { bumpedFee } from '@/lib/chain/bumpedFee'
import { addJob } from '@/lib/jobs/addJob'
import { nonceSpeedUpJobKey, TASK } from '@/lib/jobs/jobKeys'
import type { NonceSpeedUpPayload } from '@/lib/jobs/payloadTypes'
import { ValidationError } from '@/lib/web/errors/request'
import { ConflictError } from '@/lib/web/errors/resource'
import { readPendingNonceOrThrow } from './readPendingNonceOrThrow'
import type { nonceSpeedUpQueuedSchema } from './responseSchemas'

export type RequestNonceSpeedUpParameters = {
  signerAddress: string
  nonce: number
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  actor: AdminActor
  /** the fee ceiling as the web is configured (MAX_FEE_PER_GAS, MAX_PRIORITY_FEE); the worker checks its own again */
  ceiling: { maxFeePerGas: bigint | undefined; maxPriorityFeePerGas: bigint | undefined }
  maxAttempts: number
}

export type RequestNonceSpeedUpReturnType = z.infer<typeof nonceSpeedUpQueuedSchema>

/**
 * An admin speeds up one signer's pending nonce (decision 064): its own operation's transaction is to be re-signed
 * by the worker at the chosen fees (nonce_speed_up), re-derived from the operation as every replacement is. Checked
 * first, nothing written on a refusal: the nonce pending with a transaction signed at it (404; 409 while only
 * reserved), its operation still submitted (409), fees at least 12.5% above the newest transaction's on both (a
 * node replaces nothing less: 422) and under the fee ceiling (422). Then in ONE transaction the job (one waiting
 * per nonce: a second request replaces the first's fees) and its `nonce.speed_up` audit row. One admin suffices:
 * the worker signs only the operation's own call, under the ceiling.
 */
export async function requestNonceSpeedUp(
  db: Db,
  p: RequestNonceSpeedUpParameters,
): Promise<RequestNonceSpeedUpReturnType> {
  const pending = await readPendingNonceOrThrow(db, { signerAddress: p.signerAddress, nonce: p.nonce })
  if (!pending.newest)
    throw new ConflictError(`Nonce ${p.nonce} is reserved but nothing is signed at it yet: nothing to speed up.`)
  if (pending.operation === null)
    throw new ConflictError(`Nonce ${p.nonce} holds a gap fill: the nonce health check replaces it itself.`)
  if (pending.operationStatus !== 'submitted')
    throw new ConflictError(
      `The ${pending.operation} at nonce ${p.nonce} is ${pending.operationStatus}, not submitted: nothing to speed up.`,
    )
  const issues: { path: string; message: string }[] = []
  const floorFee = bumpedFee(pending.newest.maxFeePerGas)
  const floorTip = bumpedFee(pending.newest.maxPriorityFeePerGas)
  if (p.maxFeePerGas < floorFee)
    issues.push({ path: 'maxFeePerGas', message: `at least ${floorFee} wei (12.5% above ${pending.newest.hash})` })
  if (p.maxPriorityFeePerGas < floorTip)
    issues.push({
      path: 'maxPriorityFeePerGas',
      message: `at least ${floorTip} wei (12.5% above ${pending.newest.hash})`,
    })
  if (p.ceiling.maxFeePerGas !== undefined && p.maxFeePerGas > p.ceiling.maxFeePerGas)
    issues.push({ path: 'maxFeePerGas', message: `at most the fee ceiling, ${p.ceiling.maxFeePerGas} wei` })
  if (p.ceiling.maxPriorityFeePerGas !== undefined && p.maxPriorityFeePerGas > p.ceiling.maxPriorityFeePerGas)
    issues.push({
      path: 'maxPriorityFeePerGas',
      message: `at most the fee ceiling, ${p.ceiling.maxPriorityFeePerGas} wei`,
    })
  if (issues.length > 0) throw new ValidationError(issues, 'The fees cannot replace the pending transaction.')
  return db.transaction(async (tx) => {
    const payload: NonceSpeedUpPayload = {
      signerAddress: pending.signerAddress,
      nonce: p.nonce,
      maxFeePerGas: p.maxFeePerGas.toString(),
      maxPriorityFeePerGas: p.maxPriorityFeePerGas.toString(),
      requestedBy: p.actor.email,
    }
    const { jobId } = await addJob(tx, {
      task: TASK.nonceSpeedUp,
      payload,
      jobKey: nonceSpeedUpJobKey(pending.signerAddress, p.nonce),
      maxAttempts: p.maxAttempts,
      orderId: pending.operationId,
      actor: p.actor.email,
      detail: `speed-up of nonce ${p.nonce} of ${pending.signerAddress} to max fee ${p.maxFeePerGas}, tip ${p.maxPriorityFeePerGas} wei`,
    })
    await recordAudit(tx, {
      actor: p.actor,
      action: 'nonce.speed_up',
      targetType: 'signer',
      targetId: pending.signerAddress,
      detail: {
        nonce: p.nonce,
        operation: pending.operation,
        operationId: pending.operationId,
        replaces: pending.newest?.hash,
        maxFeePerGas: payload.maxFeePerGas,
        maxPriorityFeePerGas: payload.maxPriorityFeePerGas,
        jobId: jobId.toString(),
      },
    })
    return { jobId: jobId.toString(), signerAddress: pending.signerAddress, nonce: p.nonce }
  })
}
