import { GetQueueAttributesCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { type StartSqsServerReturnType, startSqsServer } from '../../scripts/stack/sqs'
import { waitFor } from '../../tests/helpers/waitFor'
import { createLogger } from '../runtime/logger'
import { type SqsOutcome, startSqsConsumer } from './startSqsConsumer'

// Graceful SIGTERM for the SQS consumer: it stops receiving at once; a message in hand
// finishes within the grace period and is deleted; one still working past it is aborted
// and handed back (visible again at once), never lost and never deleted unfinished.

let server: StartSqsServerReturnType
let client: SQSClient
const log = createLogger({ level: 'silent' })

beforeAll(async () => {
  server = await startSqsServer({ visibilityTimeoutS: 30, queueName: 'shutdown-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
})

async function counts(): Promise<{ visible: number; hidden: number }> {
  const a = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: server.queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  )
  return {
    visible: Number(a.Attributes?.ApproximateNumberOfMessages),
    hidden: Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible),
  }
}

describe('stopping the SQS consumer', () => {
  it('finishes a message within the grace period (deleted), and hands one back past it (visible again)', async () => {
    await client.send(new SendMessageCommand({ QueueUrl: server.queueUrl, MessageBody: 'quick' }))
    await client.send(new SendMessageCommand({ QueueUrl: server.queueUrl, MessageBody: 'slow' }))
    const started = new Set<string>()
    const consumer = startSqsConsumer(client, {
      queueUrl: server.queueUrl,
      concurrency: 2,
      visibilityTimeoutS: 30,
      waitTimeS: 1,
      log,
      // the two come in one receive or two; each is worked on its own, the receive settled when both are
      handle: (deliveries) =>
        Promise.all(
          deliveries.map(async (d): Promise<SqsOutcome> => {
            started.add(d.body)
            if (d.body === 'quick') {
              await new Promise((r) => setTimeout(r, 1_000))
              return { kind: 'delete' }
            }
            // works until aborted, then hands the message back
            await new Promise<void>((resolve) => d.signal.addEventListener('abort', () => resolve(), { once: true }))
            return { kind: 'release', afterS: 0 }
          }),
        ),
    })
    await waitFor(async () => started.size === 2, { timeoutMs: 10_000, what: 'both messages in hand' })
    const stoppedAt = Date.now()
    await consumer.stop(2_000)
    expect(Date.now() - stoppedAt).toBeLessThan(6_000)
    // the quick one deleted, the slow one back in the queue, nothing hidden
    expect(await counts()).toEqual({ visible: 1, hidden: 0 })
  }, 30_000)
})
