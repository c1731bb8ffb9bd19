import { type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { sleep } from '@/lib/time/sleep'
import { settleSqsOutcomes } from './settleSqsOutcomes'
import { startVisibilityHeartbeat } from './startVisibilityHeartbeat'

/** One received message, as a handler sees it. */
export type SqsDelivery = {
  messageId: string
  body: string
  /** SQS's ApproximateReceiveCount: this receive's number, 1-based (the attempt) */
  receiveCount: number
  /** when the message was sent (SQS's SentTimestamp), if known */
  sentAt: Date | null
  /** the mint's trace (message attribute `traceparent`), if it carries one */
  traceparent: string | undefined
  /** aborts when the consumer stops past its grace period */
  signal: AbortSignal
}

/**
 * What becomes of a message once handled: deleted; visible again after a delay (its
 * receive counted); or sent again as a new message delayed (up to 15 min) and this one
 * deleted (no receive counted: for work that did not run).
 */
export type SqsOutcome = { kind: 'delete' } | { kind: 'release'; afterS: number } | { kind: 'requeue'; afterS: number }

export type StartSqsConsumerParameters = {
  queueUrl: string
  /** messages in hand at once (several receives of up to 10 each) */
  concurrency: number
  /**
   * messages handed to the handler together at most (10 by default: one receive); above 10, a receive that came
   * back full is topped up by short polls issued together, so a backlog is worked in groups of this size
   */
  groupSize?: number
  /** the visibility each receive and each heartbeat gives (seconds) */
  visibilityTimeoutS: number
  /** long polling (seconds) */
  waitTimeS: number
  /**
   * works the messages of one group together (one receive, or a full receive and its top-ups: up to groupSize)
   * and says what becomes of each, in their order; a handler that throws hands them all back after their
   * visibility timeout
   */
  handle: (deliveries: SqsDelivery[]) => Promise<SqsOutcome[]>
  /**
   * asked before each receive: while it says no (the database is down), nothing is received,
   * so an outage does not spend the messages' receives and push them into the DLQ
   */
  ready?: () => Promise<boolean>
  log: { info: (fields: object, msg: string) => void; warn: (fields: object, msg: string) => void }
}

export type SqsConsumer = {
  /** messages being worked now */
  inFlight: () => number
  /**
   * stop receiving; wait up to graceMs for the messages in hand,
   * then abort them (they come back after their visibility)
   */
  stop: (graceMs: number) => Promise<void>
}

type Received = Message & { ReceiptHandle: string; MessageId: string }

/**
 * The SQS consumer (docs/decisions/021-sqs-transport.md, 065-sqs-batches.md), the SDK directly:
 * long polls of up to 10 messages (MaxNumberOfMessages 10), as many in hand as `concurrency`
 * messages allow. A receive that came back full says a backlog waits: it is topped up at once by
 * short polls (WaitTimeSeconds 0) issued together, up to `groupSize` messages in all; the
 * messages of one group are handed to the handler together (it feeds them to the send batcher as
 * one batch, and keeps their bookkeeping in one transaction per step). While they are worked their
 * visibility is extended every third of the timeout, in batch calls (startVisibilityHeartbeat:
 * visibility must outlast the work, or another worker takes them); then each is deleted,
 * released or sent again as the handler says, in batch calls (settleSqsOutcomes). A released
 * message comes back (ChangeMessageVisibility to the handler's delay), so SQS counts each
 * receive and its redrive policy moves the message to the DLQ after the 5th.
 */
export function startSqsConsumer(client: SQSClient, p: StartSqsConsumerParameters): SqsConsumer {
  const active = new Set<Promise<void>>()
  const workAborts = new Set<AbortController>()
  const receiveAbort = new AbortController()
  let running = true
  let inHand = 0
  let slotFreed: (() => void) | undefined

  const work = async (messages: Received[]) => {
    const abort = new AbortController()
    workAborts.add(abort)
    const heartbeat = startVisibilityHeartbeat(client, {
      queueUrl: p.queueUrl,
      receiptHandles: () => messages.map((m) => m.ReceiptHandle),
      visibilityTimeoutS: p.visibilityTimeoutS,
      onError: (err) =>
        p.log.warn({ err, messageIds: messages.map((m) => m.MessageId) }, 'sqs visibility heartbeat failed'),
    })
    let outcomes: SqsOutcome[]
    try {
      outcomes = await p.handle(
        messages.map((message) => ({
          messageId: message.MessageId,
          body: message.Body ?? '',
          receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 1),
          sentAt: message.Attributes?.SentTimestamp ? new Date(Number(message.Attributes.SentTimestamp)) : null,
          traceparent: message.MessageAttributes?.traceparent?.StringValue,
          signal: abort.signal,
        })),
      )
    } catch (err) {
      p.log.warn(
        { err, messageIds: messages.map((m) => m.MessageId) },
        'sqs handler threw: the messages come back after their visibility timeout',
      )
      outcomes = messages.map(() => ({ kind: 'release', afterS: p.visibilityTimeoutS }))
    } finally {
      await heartbeat.stop()
      workAborts.delete(abort)
    }
    await settleSqsOutcomes(client, {
      queueUrl: p.queueUrl,
      settled: messages.map((message, i) => ({
        message,
        outcome: outcomes[i] ?? { kind: 'release', afterS: p.visibilityTimeoutS },
      })),
      log: p.log,
    })
  }

  const groupSize = Math.max(1, p.groupSize ?? 10)
  const receive = async (max: number, waitTimeS: number): Promise<Received[]> => {
    const received = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: p.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitTimeS,
        VisibilityTimeout: p.visibilityTimeoutS,
        MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
        MessageAttributeNames: ['traceparent'],
      }),
      { abortSignal: receiveAbort.signal },
    )
    return (received.Messages ?? []).filter((m): m is Received => !!m.ReceiptHandle && !!m.MessageId)
  }
  /**
   * Up to `count` more messages, short polls of up to 10 issued together; a call that fails brings none (a message
   * it may have received comes back after its visibility timeout, its receive counted, as any lost receive's)
   */
  const topUp = async (count: number): Promise<Received[]> => {
    const calls = Array.from({ length: Math.ceil(count / 10) }, (_, i) =>
      receive(Math.min(10, count - i * 10), 0).catch((err: unknown) => {
        if (running) p.log.warn({ err }, 'sqs top-up receive failed')
        return []
      }),
    )
    // a message delivered twice (at least once: two of its receives in one group) is sorted out by the handler,
    // which runs one job's message once
    return (await Promise.all(calls)).flat()
  }

  const loop = async () => {
    while (running) {
      const free = p.concurrency - inHand
      if (free <= 0) {
        await new Promise<void>((resolve) => (slotFreed = resolve))
        continue
      }
      if (p.ready && !(await p.ready())) {
        await sleep({ ms: 1_000 })
        continue
      }
      let messages: Received[] = []
      try {
        messages = await receive(Math.min(10, free), p.waitTimeS)
      } catch (err) {
        if (!running) break
        p.log.warn({ err }, 'sqs receive failed; trying again in 1 s')
        await sleep({ ms: 1_000 })
        continue
      }
      const room = Math.min(groupSize, free)
      if (messages.length === 10 && room > 10) messages = [...messages, ...(await topUp(room - 10))]
      if (messages.length === 0) continue
      const count = messages.length
      inHand += count
      const done: Promise<void> = work(messages).finally(() => {
        inHand -= count
        active.delete(done)
        slotFreed?.()
        slotFreed = undefined
      })
      active.add(done)
    }
  }
  const looping = loop()

  return {
    inFlight: () => inHand,
    stop: async (graceMs) => {
      running = false
      receiveAbort.abort()
      slotFreed?.()
      await looping
      const graceTimer = new AbortController()
      const graceOver = sleep({ ms: graceMs, signal: graceTimer.signal }).then(
        () => 'timeout' as const,
        () => 'done' as const,
      )
      const outcome = await Promise.race([Promise.allSettled([...active]).then(() => 'done' as const), graceOver])
      graceTimer.abort()
      if (outcome === 'timeout') {
        p.log.warn({ inFlight: inHand }, 'sqs messages still in hand after the grace period: aborting them')
        for (const a of workAborts) a.abort()
        await Promise.race([Promise.allSettled([...active]), sleep({ ms: 5_000 })])
      }
    },
  }
}
