import { getAddress, type Hex } from 'viem'
import { SignerUnavailableError } from '@/worker/errors/chain'
import { isTransientFault } from '@/worker/errors/faults'
import type { Fees } from '../chain/capFees'
import { signTx } from '../chain/signTx'
import type { WorkerContext } from '../runtime/context'
import { mapWithLimit } from './mapWithLimit'
import type { Reserved } from './reserveSendBatch'
import type { SendOutcomes } from './sendOutcome'

export type SignSendBatchParameters = { reserved: readonly Reserved[]; fees: Fees }

export type Signed = Reserved & { raw: Hex; hash: Hex; fees: Fees }

export type SignSendBatchReturnType = { signed: Signed[]; outcomes: SendOutcomes }

/**
 * Signs every reserved mint through KMS OUTSIDE any database lock, SIGN_CONCURRENCY at a
 * time, with the batch's one fee estimate. A failure (KMS down, throttled, a timeout) is
 * that order's alone: its outcome is `failed` (transient; `wait`, no attempt spent, when
 * KMS still throttles after its retries) and its nonce stays bound to it, `reserved`, for
 * its next attempt to sign again; the others go on.
 */
export async function signSendBatch(
  ctx: WorkerContext,
  { reserved, fees }: SignSendBatchParameters,
): Promise<SignSendBatchReturnType> {
  const outcomes: SendOutcomes = new Map()
  const results = await mapWithLimit({
    items: reserved,
    limit: ctx.settings.signConcurrency,
    fn: async (r) => {
      const signer = ctx.signers.get(getAddress(r.signerAddress))
      if (!signer) throw new SignerUnavailableError(r.signerAddress)
      return signTx(signer.account, {
        chainId: ctx.chainId,
        nonce: r.nonce,
        to: ctx.minterAddress,
        data: r.data,
        gas: r.gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      })
    },
  })
  const signed: Signed[] = []
  for (const [i, r] of reserved.entries()) {
    const result = results[i]
    if (result?.status === 'fulfilled') signed.push({ ...r, ...result.value, fees })
    else {
      const reason: unknown = result?.reason
      // KMS throttled beyond its retries: not the order's failure, no attempt spent; it signs its bound nonce later
      if (isTransientFault(reason))
        outcomes.set(r.order.orderId, { kind: 'wait', reason: 'kms_throttled', retryInMs: reason.retryAfterMs })
      else outcomes.set(r.order.orderId, { kind: 'failed', error: reason })
      ctx.log.warn(
        { err: result?.reason, orderId: r.order.orderId, signer: r.signerAddress, nonce: r.nonce.toString() },
        'signing failed: the nonce stays bound to its order for the next attempt',
      )
    }
  }
  return { signed, outcomes }
}
