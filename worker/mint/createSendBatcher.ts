import type { SendOrder, SendOutcome } from './sendOutcome'

/**
 * What a batch says when it no longer needs the gate: `more`, its
 * claim from the queue came back full (more orders wait there).
 */
export type GateOpened = (p?: { more?: boolean }) => void

/**
 * One batch's run: the orders handed over (none for a batch that only takes from the queue), the batch's abort signal,
 * and `opened`, to be called once the batch is past its reserve transaction.
 */
export type RunSendBatch = (p: {
  orders: SendOrder[]
  signal: AbortSignal
  opened: GateOpened
}) => Promise<ReadonlyMap<string, SendOutcome>>

export type CreateSendBatcherParameters = {
  /** orders handed over per batch at most (MINT_SEND_BATCH) */
  maxBatch: number
  /** how long a first order waits for others before its batch starts (0: the same tick only) */
  lingerMs: number
  /**
   * how many batches may hold the gate at once while the queue has a
   * backlog (the last batch's claim came back full); otherwise one
   */
  backlogGates: number
  /** runs one batch; sendOperations' onReserved is where it calls `opened` */
  run: RunSendBatch
}

export type SendBatcher = {
  send: (order: SendOrder, signal: AbortSignal) => Promise<SendOutcome>
  /**
   * for the worker's shutdown: no new batch starts; resolves when every
   * running batch has ended, their signal aborted after `abortAfterMs`
   */
  drain: (p: { abortAfterMs: number }) => Promise<void>
}

/**
 * Group commit for the send path (docs/decisions/057-every-kind-batches.md): ONE batch at a time goes through the
 * gate (its lock-free preparation and its short reserve transaction, where the signer's row
 * is locked); the later steps (KMS, store, broadcast, mark) of several batches overlap.
 * - The orders handed over while a batch holds the gate wait, then go together as the
 *   next batch: below capacity a lone order starts at once; under load batches grow by
 *   themselves, and the batches of one process never queue on their signer's row.
 * - A batch whose claim from the queue came back full opens the gate with `more`: if no
 *   order was handed over meanwhile, the next batch starts at once with none, to take
 *   its orders from the queue (a drain keeps the gate busy, not the job slots).
 * Each caller gets its own order's outcome; a batch that throws as a whole fails every
 * order's attempt (transient), nothing of it having been stored (sendOperations' contract).
 */
export function createSendBatcher(p: CreateSendBatcherParameters): SendBatcher {
  const pending: { order: SendOrder; signal: AbortSignal; resolve: (o: SendOutcome) => void }[] = []
  let held = 0
  let backlog = false
  let draining = false
  let timer: NodeJS.Timeout | undefined
  const stop = new AbortController()
  const running = new Set<Promise<void>>()
  const gates = () => (backlog ? p.backlogGates : 1)

  /**
   * Starts batches while the gate has room: the orders handed over first,
   * else (a backlog in the queue) batches that take from the queue.
   */
  const fill = () => {
    clearTimeout(timer)
    timer = undefined
    while (held < gates()) {
      if (pending.length > 0) startBatch(pending.splice(0, p.maxBatch))
      else if (backlog && !draining) startBatch([])
      else return
    }
  }

  const startBatch = (batch: typeof pending) => {
    held++
    let open = true
    const opened: GateOpened = (o) => {
      if (!open) return
      open = false
      held--
      backlog = o?.more ?? false
      setImmediate(fill)
    }
    const signal = AbortSignal.any([stop.signal, ...batch.map((b) => b.signal)])
    const done = p
      .run({ orders: batch.map((b) => b.order), signal, opened })
      .then(
        (outcomes) => {
          for (const b of batch)
            b.resolve(
              outcomes.get(b.order.orderId) ?? {
                kind: 'failed',
                error: new Error('the send batch returned no outcome for this order'),
              },
            )
        },
        (error: unknown) => {
          for (const b of batch) b.resolve({ kind: 'failed', error })
        },
      )
      .finally(() => {
        opened()
        running.delete(done)
      })
    running.add(done)
  }

  return {
    send: (order, signal) =>
      new Promise<SendOutcome>((resolve) => {
        pending.push({ order, signal, resolve })
        if (held >= gates()) return
        if (pending.length >= p.maxBatch) fill()
        // the orders handed over in the same tick (graphile-worker
        // starts the jobs of one fetch together) go as one batch
        else timer ??= setTimeout(fill, p.lingerMs)
      }),
    drain: async ({ abortAfterMs }) => {
      draining = true
      const abort = setTimeout(() => stop.abort(), abortAfterMs)
      try {
        while (running.size > 0) await Promise.all([...running])
      } finally {
        clearTimeout(abort)
      }
    },
  }
}
