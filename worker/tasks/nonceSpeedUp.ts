import { z } from 'zod'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import type { NonceSpeedUpPayload } from '@/lib/jobs/payloadTypes'
import { listNonceTxs } from '../db/listNonceTxs'
import { confirmRunOf } from '../mint/confirmRun'
import { newestTx } from '../mint/newestTx'
import { replaceStuckTx } from '../mint/replaceStuckTx'
import type { TaskDefinition } from '../runtime/runTask'

const wei = z.string().regex(/^[1-9][0-9]{0,77}$/)

export const nonceSpeedUpPayload = z.object({
  signerAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  nonce: z.number().int().min(0),
  maxFeePerGas: wei,
  maxPriorityFeePerGas: wei,
  requestedBy: z.string().min(1).max(320),
}) satisfies z.ZodType<NonceSpeedUpPayload>

/**
 * nonce_speed_up (decision 064): an admin's chosen fees for one signer's pending nonce. The nonce's own operation's
 * call is re-signed at exactly those fees through the pipeline's one replacement (replaceStuckTx: the calldata
 * re-derived from the operation and checked against the stored bytes, stored before it is sent, a 'replaced'
 * event), never anything taken from the payload but the fees. Refused for good (a dead letter saying why,
 * nothing signed): no operation's transaction at the nonce, the operation no longer submitted, or fees under
 * the bump's floor or above the fee ceiling; while the stop switch is on or KMS throttles, too (the admin asks again).
 */
export const nonceSpeedUp: TaskDefinition<NonceSpeedUpPayload> = {
  name: TASK.nonceSpeedUp,
  payload: nonceSpeedUpPayload,
  run: async (ctx, job) => {
    const { signerAddress, nonce, requestedBy } = job.payload
    const txs = (await listNonceTxs(ctx.db, { signerAddress, nonce: BigInt(nonce) })).filter(
      (t) => t.minedBlock === null,
    )
    if (txs.length === 0) throw new PermanentJobError(`nothing pending is signed at nonce ${nonce} of ${signerAddress}`)
    const newest = newestTx(txs)
    const { operation } = newest
    const operationId = newest.orderId ?? newest.redemptionId ?? newest.complianceOperationId ?? newest.controlChangeId
    if (operation === null || operationId === null || newest.kind === 'gap_fill')
      throw new PermanentJobError(
        `nonce ${nonce} of ${signerAddress} holds a gap fill, which the nonce health check replaces itself`,
      )
    const replaced = await replaceStuckTx(ctx, confirmRunOf(TASK.nonceSpeedUp, job), {
      operation,
      orderId: operationId,
      txs,
      newest,
      why: `sped up by ${requestedBy}`,
      chosen: {
        maxFeePerGas: BigInt(job.payload.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(job.payload.maxPriorityFeePerGas),
      },
    })
    if (!replaced)
      throw new PermanentJobError(
        `nonce ${nonce} of ${signerAddress} was not sped up: its ${operation} is no longer submitted, the fees are outside the floor or the ceiling (its fee_capped event says), signing is stopped or KMS throttled`,
      )
  },
}
