import { sendMintOrders } from '../mint/sendMintOrders'
import type { SendOrder, SendOutcome } from '../mint/sendOutcome'
import type { WorkerContext } from '../runtime/context'

export type CreateSendBatcherParameters = {
  /** orders per sendMintOrders call at most (MINT_SEND_BATCH) */
  maxBatch: number
  /** how long the first order waits for others (the messages of one receive arrive together) */
  lingerMs: number
}

export type SendBatcher = { send: (order: SendOrder, signal: AbortSignal) => Promise<SendOutcome> }

/**
 * Gathers the orders of the SQS messages worked at the same moment into one
 * sendMintOrders call (decision 014: consecutive nonces of one signer, signed in
 * parallel), and hands each message its own order's outcome. A batch that throws as a
 * whole fails every order's attempt (transient), as the graphile face does.
 */
export function createSendBatcher(ctx: WorkerContext, p: CreateSendBatcherParameters): SendBatcher {
  let pending: { order: SendOrder; signal: AbortSignal; resolve: (o: SendOutcome) => void }[] = []
  let timer: NodeJS.Timeout | undefined

  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    const batch = pending.splice(0, p.maxBatch)
    if (pending.length > 0) timer = setTimeout(flush, 0)
    if (batch.length === 0) return
    const orders = batch.map((b) => b.order)
    const signal = AbortSignal.any(batch.map((b) => b.signal))
    sendMintOrders(ctx, { orders, actor: ctx.workerId(), signal }).then(
      (outcomes) => {
        for (const b of batch) b.resolve(outcomes.get(b.order.orderId) ?? { kind: 'failed', error: new Error('the send batch returned no outcome for this order') })
      },
      (error: unknown) => {
        for (const b of batch) b.resolve({ kind: 'failed', error })
      },
    )
  }

  return {
    send: (order, signal) =>
      new Promise<SendOutcome>((resolve) => {
        pending.push({ order, signal, resolve })
        if (pending.length >= p.maxBatch) flush()
        else timer ??= setTimeout(flush, p.lingerMs)
      }),
  }
}
