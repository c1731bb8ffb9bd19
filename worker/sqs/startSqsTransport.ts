import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs'
import { sql } from 'drizzle-orm'
import type { SqsConfig } from '@/lib/config/loadConfig'
import { sleep } from '@/lib/time/sleep'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { createSendBatcher, type SendBatcher } from '../mint/createSendBatcher'
import { sendMintOrders } from '../mint/sendMintOrders'
import type { WorkerContext } from '../runtime/context'
import { RELAY_PASS_ROWS, relayOutbox } from './relayOutbox'
import { scanDeadLetterQueue } from './scanDeadLetterQueue'
import { sqsMessageHandler } from './sqsMessageHandler'
import { sqsMintSend } from './sqsMintSend'
import { startSqsConsumer } from './startSqsConsumer'

export type StartSqsTransportParameters = {
  sqs: SqsConfig
  region: string
  /** graceful shutdown: how long messages in hand get to finish */
  shutdownGraceMs: number
}

export type SqsTransport = { stop: () => Promise<void> }

/**
 * QUEUE_TRANSPORT=sqs in the worker process: the outbox relay (unsent rows to SQS, SendMessageBatch), the mint_send
 * consumer (receives of 10, under a backlog topped up to MINT_SEND_BATCH messages, each group worked as one batch by
 * sqsMessageHandler, its orders through the send batcher into sendMintOrders) and the dead-letter scan that lists
 * the DLQ for the admin page and moves retried messages back.
 * All SQS calls are the worker's: the web has no SQS rights.
 * The attempts are the queue's own redrive policy (maxReceiveCount), read once here.
 */
export async function startSqsTransport(ctx: WorkerContext, p: StartSqsTransportParameters): Promise<SqsTransport> {
  const client = createSqsClient({ region: p.region, endpoint: p.sqs.endpoint })
  const attrs = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: p.sqs.queueUrl, AttributeNames: ['RedrivePolicy'] }),
  )
  const redrive = attrs.Attributes?.RedrivePolicy
    ? (JSON.parse(attrs.Attributes.RedrivePolicy) as { maxReceiveCount?: unknown })
    : null
  const maxReceiveCount = Number(redrive?.maxReceiveCount ?? NaN)
  if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) {
    ctx.log.warn(
      { queueUrl: p.sqs.queueUrl },
      'the SQS queue has no redrive policy: failing messages never reach a dead-letter queue',
    )
  }
  const attempts =
    Number.isInteger(maxReceiveCount) && maxReceiveCount >= 1 ? maxReceiveCount : ctx.settings.maxAttempts

  let running = true
  const stopping = new AbortController()
  const loops: Promise<void>[] = []
  const every = (name: string, ms: number, pass: () => Promise<boolean>) => {
    loops.push(
      (async () => {
        while (running) {
          let again = false
          try {
            again = await pass()
          } catch (err) {
            ctx.log.warn({ err }, `sqs ${name} failed`)
          }
          if (!again) await sleep({ ms, signal: stopping.signal }).catch(() => {})
        }
      })(),
    )
  }
  // a full pass sent: look again at once
  every(
    'relay',
    p.sqs.relayMs,
    async () => (await relayOutbox(ctx.db, client, { queueUrl: p.sqs.queueUrl })) === RELAY_PASS_ROWS,
  )
  every('dead-letter scan', p.sqs.dlqScanMs, async () => {
    const scan = await scanDeadLetterQueue(ctx.db, client, { queueUrl: p.sqs.queueUrl, dlqUrl: p.sqs.dlqUrl })
    if (scan && (scan.moved > 0 || scan.dropped > 0))
      ctx.log.info({ moved: scan.moved, dropped: scan.dropped }, 'dead-letter scan moved or dropped messages')
    return false
  })
  // the messages of one group (a receive, or under a backlog a full receive topped up to MINT_SEND_BATCH) are handed
  // to the process's send batcher together: one send batch, with those of the other groups in hand that arrive
  // while a batch holds the gate
  const handler = sqsMessageHandler(ctx, sqsMintSend(sqsSendBatcher(ctx)), { maxReceiveCount: attempts })
  // set when a receive's handling threw (the database down, most likely): until a probe answers, nothing is received
  let suspect = false
  const consumer = startSqsConsumer(client, {
    queueUrl: p.sqs.queueUrl,
    concurrency: p.sqs.concurrency,
    groupSize: ctx.settings.sendBatch,
    visibilityTimeoutS: p.sqs.visibilityTimeoutS,
    waitTimeS: p.sqs.waitTimeS,
    handle: (deliveries) =>
      handler(deliveries).catch((err: unknown) => {
        suspect = true
        throw err
      }),
    // no receive while the database does not answer (the handler could not record or run it): asked of the
    // database only after a receive's handling threw, so a healthy worker spends no statement per receive
    ready: async () => {
      if (!suspect) return true
      suspect = !(await ctx.db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ))
      return !suspect
    },
    log: { info: (f, m) => ctx.log.info(f, m), warn: (f, m) => ctx.log.warn(f, m) },
  })
  ctx.log.info(
    { queueUrl: p.sqs.queueUrl, maxReceiveCount: attempts, concurrency: p.sqs.concurrency },
    'sqs transport started',
  )

  return {
    stop: async () => {
      running = false
      stopping.abort()
      await consumer.stop(p.shutdownGraceMs)
      await Promise.allSettled(loops)
      client.destroy()
    },
  }
}

function sqsSendBatcher(ctx: WorkerContext): SendBatcher {
  return createSendBatcher({
    maxBatch: ctx.settings.sendBatch,
    lingerMs: 10,
    backlogGates: 1,
    run: ({ orders, signal, opened }) =>
      sendMintOrders(ctx, { orders, actor: ctx.workerId(), signal, onReserved: () => opened() }),
  })
}
