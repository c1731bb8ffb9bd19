import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { sleep } from '@/lib/time/sleep'
import { startVisibilityHeartbeat } from './startVisibilityHeartbeat'
import { traceAttributes } from './traceAttributes'

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
  /** messages worked at once */
  concurrency: number
  /** the visibility each receive and each heartbeat gives (seconds) */
  visibilityTimeoutS: number
  /** long polling (seconds) */
  waitTimeS: number
  handle: (delivery: SqsDelivery) => Promise<SqsOutcome>
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

/**
 * The SQS consumer (docs/decisions/021-sqs-transport.md), the SDK directly: long polling for up to
 * `concurrency` messages at a time; while a message is worked its visibility is extended
 * every third of the timeout (startVisibilityHeartbeat: visibility must outlast the work, or
 * another worker takes it); deleted when the handler says done; otherwise left to come
 * back (ChangeMessageVisibility to the handler's delay), so SQS counts each receive and its
 * redrive policy moves the message to the DLQ after the 5th.
 */
export function startSqsConsumer(client: SQSClient, p: StartSqsConsumerParameters): SqsConsumer {
  const active = new Set<Promise<void>>()
  const workAborts = new Set<AbortController>()
  const receiveAbort = new AbortController()
  let running = true
  let slotFreed: (() => void) | undefined

  const work = async (message: Message) => {
    const receiptHandle = message.ReceiptHandle
    if (!receiptHandle || !message.MessageId) return
    const abort = new AbortController()
    workAborts.add(abort)
    const heartbeat = startVisibilityHeartbeat(client, {
      queueUrl: p.queueUrl,
      receiptHandle,
      visibilityTimeoutS: p.visibilityTimeoutS,
      onError: (err) => p.log.warn({ err, messageId: message.MessageId }, 'sqs visibility heartbeat failed'),
    })
    let outcome: SqsOutcome
    try {
      outcome = await p.handle({
        messageId: message.MessageId,
        body: message.Body ?? '',
        receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 1),
        sentAt: message.Attributes?.SentTimestamp ? new Date(Number(message.Attributes.SentTimestamp)) : null,
        traceparent: message.MessageAttributes?.traceparent?.StringValue,
        signal: abort.signal,
      })
    } catch (err) {
      p.log.warn(
        { err, messageId: message.MessageId },
        'sqs handler threw: the message comes back after its visibility timeout',
      )
      outcome = { kind: 'release', afterS: p.visibilityTimeoutS }
    } finally {
      await heartbeat.stop()
      workAborts.delete(abort)
    }
    try {
      if (outcome.kind === 'requeue') {
        // a crash between the two sends it twice at worst: the handler is idempotent on the order
        await client.send(
          new SendMessageCommand({
            QueueUrl: p.queueUrl,
            MessageBody: message.Body ?? '',
            MessageAttributes: traceAttributes(message.MessageAttributes?.traceparent?.StringValue),
            DelaySeconds: Math.min(900, Math.max(0, Math.ceil(outcome.afterS))),
          }),
        )
      }
      if (outcome.kind !== 'release')
        await client.send(new DeleteMessageCommand({ QueueUrl: p.queueUrl, ReceiptHandle: receiptHandle }))
      else
        await client.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: p.queueUrl,
            ReceiptHandle: receiptHandle,
            VisibilityTimeout: Math.min(Math.max(0, Math.round(outcome.afterS)), 43_200),
          }),
        )
    } catch (err) {
      // the message comes back after its visibility timeout; the handler is idempotent on the order
      p.log.warn({ err, messageId: message.MessageId, outcome: outcome.kind }, 'sqs delete or release failed')
    }
  }

  const loop = async () => {
    while (running) {
      const free = p.concurrency - active.size
      if (free <= 0) {
        await new Promise<void>((resolve) => (slotFreed = resolve))
        continue
      }
      if (p.ready && !(await p.ready())) {
        await sleep({ ms: 1_000 })
        continue
      }
      let messages: Message[] = []
      try {
        const received = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: p.queueUrl,
            MaxNumberOfMessages: Math.min(10, free),
            WaitTimeSeconds: p.waitTimeS,
            VisibilityTimeout: p.visibilityTimeoutS,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
            MessageAttributeNames: ['traceparent'],
          }),
          { abortSignal: receiveAbort.signal },
        )
        messages = received.Messages ?? []
      } catch (err) {
        if (!running) break
        p.log.warn({ err }, 'sqs receive failed; trying again in 1 s')
        await sleep({ ms: 1_000 })
        continue
      }
      for (const message of messages) {
        const done: Promise<void> = work(message).finally(() => {
          active.delete(done)
          slotFreed?.()
          slotFreed = undefined
        })
        active.add(done)
      }
    }
  }
  const looping = loop()

  return {
    inFlight: () => active.size,
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
        p.log.warn({ inFlight: active.size }, 'sqs messages still in hand after the grace period: aborting them')
        for (const a of workAborts) a.abort()
        await Promise.race([Promise.allSettled([...active]), sleep({ ms: 5_000 })])
      }
    },
  }
}
