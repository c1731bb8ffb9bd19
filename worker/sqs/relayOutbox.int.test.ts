import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jobEvents, jobRecords } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { type StartSqsServerReturnType, startSqsServer } from '../../scripts/stack/sqs'
import { createTestDatabase, type TestDatabase } from '../../tests/helpers/db'
import { insertOrder } from '../../tests/helpers/orders'
import { insertUser } from '../../tests/helpers/users'
import { waitFor } from '../../tests/helpers/waitFor'
import { createLogger } from '../runtime/logger'
import { relayOutbox } from './relayOutbox'
import { sqsMessageHandler } from './sqsMessageHandler'
import { startSqsConsumer } from './startSqsConsumer'

// The outbox relay's one weakness, made to happen: the process dies after SQS accepted the
// batch and before the rows are stamped sent. The rows are sent again (two messages for
// one job), and the job still runs once: the second message finds it done and is deleted.

let t: TestDatabase
let server: StartSqsServerReturnType
let client: SQSClient
const log = createLogger({ level: 'silent' })

beforeAll(async () => {
  t = await createTestDatabase()
  server = await startSqsServer({ visibilityTimeoutS: 5, queueName: 'relay-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
  await t?.drop()
})

describe('the outbox relay', () => {
  it('a crash between the send and the stamp sends twice at worst, and the job runs once', async () => {
    const user = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: user.id })
    const { jobId } = await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'sqs', orderId: order.id, maxAttempts: 5, actor: 'test' }),
    )

    await expect(
      relayOutbox(t.db, client, {
        queueUrl: server.queueUrl,
        afterSend: () => {
          throw new Error('killed after the send, before the stamp')
        },
      }),
    ).rejects.toThrow('killed after the send')
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(1)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(0)
    const attrs = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: server.queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    )
    expect(attrs.Attributes?.ApproximateNumberOfMessages).toBe('2')

    let runs = 0
    const task = {
      name: TASK.mintSend,
      payload: z.object({ orderId: z.guid() }),
      orderIdOf: (p: { orderId: string }) => p.orderId,
      run: async () => {
        runs++
      },
    }
    const consumer = startSqsConsumer(client, {
      queueUrl: server.queueUrl,
      concurrency: 1,
      visibilityTimeoutS: 5,
      waitTimeS: 1,
      handle: sqsMessageHandler({ db: t.db, log, workerId: () => 'relay-test' }, task, { maxReceiveCount: 5 }),
      log,
    })
    try {
      await waitFor(
        async () => {
          const a = await client.send(
            new GetQueueAttributesCommand({
              QueueUrl: server.queueUrl,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          )
          return (
            a.Attributes?.ApproximateNumberOfMessages === '0' &&
            a.Attributes?.ApproximateNumberOfMessagesNotVisible === '0'
          )
        },
        { timeoutMs: 20_000, what: 'both messages deleted' },
      )
    } finally {
      await consumer.stop(5_000)
    }
    expect(runs).toBe(1)
    const [record] = await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId))
    expect(record).toMatchObject({ state: 'done', attempts: 1 })
    const succeeded = await t.db
      .select()
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, jobId), eq(jobEvents.event, 'succeeded')))
    expect(succeeded).toHaveLength(1)
  }, 60_000)

  it("carries the mint's trace as the message attribute traceparent (issue 17), in the body too", async () => {
    const user = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: user.id })
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
    // the one enqueue called from SQL, as the intake calls it, with a payload that carries a trace
    const spec = {
      task: 'mint_send',
      payload: JSON.stringify({ orderId: order.id, traceparent }),
      transport: 'sqs',
      order_id: order.id,
      max_attempts: 5,
      actor: 'test',
    }
    await t.db.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
    const plain = await insertOrder(t.db, { requestedBy: user.id })
    await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'sqs', orderId: plain.id, maxAttempts: 5, actor: 'test' }),
    )
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(2)
    const received: Message[] = []
    while (received.length < 2) {
      const r = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: server.queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageAttributeNames: ['traceparent'],
        }),
      )
      received.push(...(r.Messages ?? []))
    }
    const byOrder = new Map(received.map((m) => [(JSON.parse(m.Body ?? '{}') as { orderId: string }).orderId, m]))
    expect(byOrder.get(order.id)?.MessageAttributes?.traceparent).toEqual({
      DataType: 'String',
      StringValue: traceparent,
    })
    expect(JSON.parse(byOrder.get(order.id)?.Body ?? '{}')).toMatchObject({ orderId: order.id, traceparent })
    // tracing off: no attribute, no key in the body or the job's history
    expect(byOrder.get(plain.id)?.MessageAttributes).toBeUndefined()
    expect(JSON.parse(byOrder.get(plain.id)?.Body ?? '{}')).not.toHaveProperty('traceparent')
    const [record] = await t.db.select().from(jobRecords).where(eq(jobRecords.orderId, plain.id))
    expect(record?.payload).toEqual({ orderId: plain.id })
    for (const m of received)
      await client.send(new DeleteMessageCommand({ QueueUrl: server.queueUrl, ReceiptHandle: m.ReceiptHandle }))
  }, 30_000)
})
