import { describe, expect, it } from 'vitest'
import { createSendBatcher, type GateOpened, type RunSendBatch } from './createSendBatcher'
import type { SendOrder, SendOutcome } from './sendOutcome'

const order = (n: number): SendOrder => ({ orderId: `order-${n}`, jobId: BigInt(n), attempt: 1 })
const never = new AbortController().signal
const settled = (id: string): SendOutcome => ({ kind: 'settled', status: `done ${id}` })
const tick = () => new Promise((r) => setTimeout(r, 5))

/** A run whose batches the test opens and ends by hand. */
function controlledRun() {
  const batches: { ids: string[]; opened: GateOpened; signal: AbortSignal; end: (error?: unknown) => void }[] = []
  const run: RunSendBatch = ({ orders, opened, signal }) =>
    new Promise((resolve, reject) => {
      batches.push({
        ids: orders.map((o) => o.orderId),
        opened,
        signal,
        end: (error) => (error ? reject(error) : resolve(new Map(orders.map((o) => [o.orderId, settled(o.orderId)])))),
      })
    })
  return { run, batches }
}

describe('createSendBatcher', () => {
  it('starts a lone order at once, and gathers the orders that come while a batch holds the gate into the next one', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 0, backlogGates: 1, run })
    const first = batcher.send(order(1), never)
    await tick()
    expect(batches.map((b) => b.ids)).toEqual([['order-1']])

    const waiting = [2, 3, 4].map((n) => batcher.send(order(n), never))
    await tick()
    expect(batches).toHaveLength(1)

    batches[0]?.opened()
    await tick()
    // the later steps of batch 1 and the start of batch 2 overlap
    expect(batches.map((b) => b.ids)).toEqual([['order-1'], ['order-2', 'order-3', 'order-4']])
    batches[1]?.end()
    batches[0]?.end()
    expect(await first).toEqual(settled('order-1'))
    expect(await Promise.all(waiting)).toEqual(['order-2', 'order-3', 'order-4'].map(settled))
  })

  it('takes at most maxBatch orders per batch', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 2, lingerMs: 0, backlogGates: 1, run })
    const all = [1, 2, 3, 4, 5].map((n) => batcher.send(order(n), never))
    await tick()
    expect(batches.map((b) => b.ids)).toEqual([['order-1', 'order-2']])
    batches[0]?.end()
    await tick()
    batches[1]?.end()
    await tick()
    batches[2]?.end()
    expect(batches.map((b) => b.ids)).toEqual([['order-1', 'order-2'], ['order-3', 'order-4'], ['order-5']])
    expect(await Promise.all(all)).toHaveLength(5)
  })

  it('opens the gate when a batch ends without calling opened, and fails every order of a batch that throws, only that batch', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 0, backlogGates: 1, run })
    const a = batcher.send(order(1), never)
    await tick()
    const b = batcher.send(order(2), never)
    await tick()
    expect(batches).toHaveLength(1)
    const boom = new Error('the database went away')
    batches[0]?.end(boom)
    expect(await a).toEqual({ kind: 'failed', error: boom })
    await tick()
    expect(batches.map((x) => x.ids)).toEqual([['order-1'], ['order-2']])
    batches[1]?.end()
    expect(await b).toEqual(settled('order-2'))
  })

  it('answers an order the batch returned nothing for as failed', async () => {
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 0, backlogGates: 1, run: async () => new Map() })
    const outcome = await batcher.send(order(1), never)
    expect(outcome.kind).toBe('failed')
  })

  it('aborts a batch when any of its callers aborts (the worker shutting down)', async () => {
    const signals: AbortSignal[] = []
    const batcher = createSendBatcher({
      maxBatch: 50,
      lingerMs: 0,
      backlogGates: 1,
      run: async ({ orders, signal }) => {
        signals.push(signal)
        await tick()
        return new Map(orders.map((o) => [o.orderId, settled(o.orderId)]))
      },
    })
    const stop = new AbortController()
    const done = Promise.all([batcher.send(order(1), never), batcher.send(order(2), stop.signal)])
    stop.abort()
    await done
    expect(signals).toHaveLength(1)
    expect(signals[0]?.aborted).toBe(true)
  })

  it('waits lingerMs for more orders before a first one starts', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 30, backlogGates: 1, run })
    void batcher.send(order(1), never)
    await tick()
    void batcher.send(order(2), never)
    expect(batches).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 40))
    expect(batches.map((b) => b.ids)).toEqual([['order-1', 'order-2']])
  })

  it('with more in the queue, starts the next batch with no order handed over, to take from the queue; not once draining', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 0, backlogGates: 1, run })
    const first = batcher.send(order(1), never)
    await tick()
    batches[0]?.opened({ more: true })
    await tick()
    expect(batches.map((b) => b.ids)).toEqual([['order-1'], []])
    // a batch whose claim was not full does not go on by itself
    batches[1]?.opened({ more: false })
    await tick()
    expect(batches).toHaveLength(2)
    batches[1]?.end()
    batches[0]?.end()
    await first

    const second = batcher.send(order(2), never)
    await tick()
    const drained = batcher.drain({ abortAfterMs: 60_000 })
    batches[2]?.opened({ more: true })
    await tick()
    expect(batches, 'no batch for the queue once draining').toHaveLength(3)
    let over = false
    void drained.then(() => (over = true))
    await tick()
    expect(over, 'drain waits for the running batch').toBe(false)
    batches[2]?.end()
    await second
    await drained
  })

  it('drain aborts the running batches after abortAfterMs', async () => {
    const { run, batches } = controlledRun()
    const batcher = createSendBatcher({ maxBatch: 50, lingerMs: 0, backlogGates: 1, run })
    const sent = batcher.send(order(1), never)
    await tick()
    const drained = batcher.drain({ abortAfterMs: 20 })
    expect(batches[0]?.signal.aborted).toBe(false)
    await new Promise((r) => setTimeout(r, 40))
    expect(batches[0]?.signal.aborted).toBe(true)
    batches[0]?.end(new Error('aborted'))
    await drained
    expect((await sent).kind).toBe('failed')
  })
})
