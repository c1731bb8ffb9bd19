import type { SendOrder, SendOutcome } from './sendOutcome'

/** One batch's run: the orders gathered, the batch's abort signal, and `opened`, to be called once the batch no longer needs the gate. */
export type RunSendBatch = (p: { orders: SendOrder[]; signal: AbortSignal; opened: () => void }) => Promise<ReadonlyMap<string, SendOutcome>>

export type CreateSendBatcherParameters = {
  /** orders per batch at most (MINT_SEND_BATCH) */
  maxBatch: number
  /** how long a first order waits for others before its batch starts (0: the same tick only) */
  lingerMs: number
  /** runs one batch; sendMintOrders' onReserved is where it calls `opened` */
  run: RunSendBatch
}

export type SendBatcher = { send: (order: SendOrder, signal: AbortSignal) => Promise<SendOutcome> }

/**
 * Group commit for the send path (decision 023): gathers the orders a process is asked to
 * send into batches, ONE batch at a time through the gate (its lock-free preparation and its
 * short reserve transaction, where the signer's row is locked), the later steps (KMS,
 * store, broadcast, mark) of several batches overlapping. The orders that arrive while a
 * batch holds the gate wait for it, then go together as the next batch: below capacity a
 * lone order starts at once; under load batches grow by themselves, and the batches of one
 * process never queue on their signer's row behind each other. Each caller gets its own
 * order's outcome; a batch that throws as a whole fails every order's attempt (transient),
 * nothing of it having been stored (sendMintOrders' contract).
 */
export function createSendBatcher(p: CreateSendBatcherParameters): SendBatcher {
  let pending: { order: SendOrder; signal: AbortSignal; resolve: (o: SendOutcome) => void }[] = []
  let gateHeld = false
  let timer: NodeJS.Timeout | undefined

  const start = () => {
    clearTimeout(timer)
    timer = undefined
    if (gateHeld || pending.length === 0) return
    const batch = pending.slice(0, p.maxBatch)
    pending = pending.slice(batch.length)
    gateHeld = true
    let open = true
    const opened = () => {
      if (!open) return
      open = false
      gateHeld = false
      // the orders that came meanwhile go now, together
      if (pending.length > 0) setImmediate(start)
    }
    const signal = AbortSignal.any(batch.map((b) => b.signal))
    const orders = batch.map((b) => b.order)
    p.run({ orders, signal, opened })
      .then(
        (outcomes) => {
          for (const b of batch) b.resolve(outcomes.get(b.order.orderId) ?? { kind: 'failed', error: new Error('the send batch returned no outcome for this order') })
        },
        (error: unknown) => {
          for (const b of batch) b.resolve({ kind: 'failed', error })
        },
      )
      .finally(opened)
  }

  return {
    send: (order, signal) =>
      new Promise<SendOutcome>((resolve) => {
        pending.push({ order, signal, resolve })
        if (gateHeld) return
        if (pending.length >= p.maxBatch) start()
        // the orders handed over in the same tick (graphile-worker starts the jobs of one fetch together) go as one batch
        else timer ??= p.lingerMs > 0 ? setTimeout(start, p.lingerMs) : setTimeout(start, 0)
      }),
  }
}
