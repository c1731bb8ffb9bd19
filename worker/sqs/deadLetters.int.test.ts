import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { listSqsDeadLetters } from '@/lib/web/queue/listSqsDeadLetters'
import { readSqsQueueMetrics } from '@/lib/web/queue/readSqsQueueMetrics'
import { requestSqsDeadLetterRetry } from '@/lib/web/queue/requestSqsDeadLetterRetry'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { type StartSqsServerReturnType, startSqsServer } from '../../scripts/stack/sqs'
import { createTestDatabase, type TestDatabase } from '../../tests/helpers/db'
import { insertOrder } from '../../tests/helpers/orders'
import { insertUser } from '../../tests/helpers/users'
import { waitFor } from '../../tests/helpers/waitFor'
import { createLogger } from '../runtime/logger'
import { relayOutbox } from './relayOutbox'
import { scanDeadLetterQueue } from './scanDeadLetterQueue'
import { sqsMessageHandler } from './sqsMessageHandler'
import { startSqsConsumer } from './startSqsConsumer'

// The source design's exercise against the embedded endpoint with the real SDK: a job that
// fails every time is received 5 times, lands in the DLQ after the 5th receive and not
// before, is listed for the admin page with its order, last error and receive count, and a
// retry moves it back with the order reopened.

let t: TestDatabase
let server: StartSqsServerReturnType
let client: SQSClient
const log = createLogger({ level: 'silent' })

beforeAll(async () => {
  t = await createTestDatabase()
  server = await startSqsServer({ visibilityTimeoutS: 2, maxReceiveCount: 5, queueName: 'dead-letters-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
  await t?.drop()
})

async function depth(url: string): Promise<{ visible: number; hidden: number }> {
  const a = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  )
  return {
    visible: Number(a.Attributes?.ApproximateNumberOfMessages ?? 0),
    hidden: Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
  }
}

describe('an SQS mint_send that fails every time', () => {
  it('is received 5 times, reaches the DLQ after the 5th and not before, and is listed and retried from the admin side', async () => {
    const user = await insertUser(t.db, 'staff')
    const order = await insertOrder(t.db, { requestedBy: user.id })
    const { jobId } = await t.db.transaction((tx) =>
      enqueueMintSend(tx, {
        transport: 'sqs',
        orderId: order.id,
        maxAttempts: 5,
        actor: 'staff@test',
        detail: 'mint 401.084 oz',
      }),
    )
    await t.db.update(mintOrders).set({ jobId }).where(eq(mintOrders.id, order.id))
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(1)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(0)

    const dlqDepthAtEachRun: number[] = []
    const failing = {
      name: TASK.mintSend,
      payload: z.object({ orderId: z.guid() }),
      orderIdOf: (p: { orderId: string }) => p.orderId,
      run: async () => {
        dlqDepthAtEachRun.push((await depth(server.dlqUrl)).visible)
        throw new Error('the recipient is not valid (always)')
      },
    }
    const ctx = { db: t.db, log, workerId: () => 'sqs-test-worker' }
    const consumer = startSqsConsumer(client, {
      queueUrl: server.queueUrl,
      concurrency: 2,
      visibilityTimeoutS: 2,
      waitTimeS: 1,
      handle: sqsMessageHandler(ctx, failing, { maxReceiveCount: 5, retryDelayS: () => 1 }),
      log,
    })
    try {
      await waitFor(async () => (await depth(server.dlqUrl)).visible === 1, {
        timeoutMs: 30_000,
        what: 'the message in the DLQ',
      })
      // received 5 times, and the DLQ was empty at every one of them: not moved before the 5th
      expect(dlqDepthAtEachRun).toEqual([0, 0, 0, 0, 0])
      // and never received again once moved
      await new Promise((r) => setTimeout(r, 3_000))
      expect(dlqDepthAtEachRun).toHaveLength(5)
      expect(await depth(server.queueUrl)).toEqual({ visible: 0, hidden: 0 })
    } finally {
      await consumer.stop(5_000)
    }

    // the timeline: five attempts by receive count, the last one dead; the order failed
    const started = await t.db
      .select({ attempt: jobEvents.attempt })
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, jobId), eq(jobEvents.event, 'started')))
      .orderBy(jobEvents.id)
    expect(started.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5])
    const [record] = await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId))
    expect(record).toMatchObject({ state: 'dead', attempts: 5, maxAttempts: 5 })
    const [failed] = await t.db
      .select({ status: mintOrders.status })
      .from(mintOrders)
      .where(eq(mintOrders.id, order.id))
    expect(failed?.status).toBe('failed')

    // the admin page's list, from the worker's scan (the DLQ's depth stays true: the scan hands it back)
    const scan = await scanDeadLetterQueue(t.db, client, { queueUrl: server.queueUrl, dlqUrl: server.dlqUrl })
    expect(scan).toEqual({ listed: 1, moved: 0, dropped: 0, complete: true })
    expect((await depth(server.dlqUrl)).visible).toBe(1)
    const listed = await listSqsDeadLetters(t.db)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      jobId: jobId.toString(),
      orderId: order.id,
      orderStatus: 'failed',
      receiveCount: 5,
      retryRequestedAt: null,
    })
    expect(listed[0]?.lastError).toContain('the recipient is not valid (always)')
    expect((await readSqsQueueMetrics(t.db)).deadLetters).toBe(1)

    // retry: the order reopened, the job's attempts fresh, a new message of the next generation through the relay;
    // the dead letter is stale at once (not listed) and the next scan deletes it from the DLQ
    const admin = await insertUser(t.db, 'admin')
    const retried = await requestSqsDeadLetterRetry(t.db, { messageIds: [listed[0]?.messageId ?? ''], actor: admin })
    expect(retried.retried).toHaveLength(1)
    const [reopened] = await t.db
      .select({ status: mintOrders.status })
      .from(mintOrders)
      .where(eq(mintOrders.id, order.id))
    expect(reopened?.status).toBe('pending')
    expect(await listSqsDeadLetters(t.db)).toEqual([])
    expect((await readSqsQueueMetrics(t.db)).deadLetters).toBe(0)
    // a second retry of the same dead letter: refused, nothing sent
    expect(
      await requestSqsDeadLetterRetry(t.db, { messageIds: [listed[0]?.messageId ?? ''], actor: admin }),
    ).toMatchObject({ retried: [], skipped: [{ reason: 'not_dead', jobState: 'queued' }] })
    expect(await scanDeadLetterQueue(t.db, client, { queueUrl: server.queueUrl, dlqUrl: server.dlqUrl })).toEqual({
      listed: 0,
      moved: 0,
      dropped: 1,
      complete: true,
    })
    expect((await depth(server.dlqUrl)).visible).toBe(0)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(1)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(0)
    // the consumer's last long poll, aborted by its stop, may have taken it for one visibility timeout (as on SQS)
    const back = await client.send(
      new ReceiveMessageCommand({ QueueUrl: server.queueUrl, WaitTimeSeconds: 5, VisibilityTimeout: 5 }),
    )
    expect(JSON.parse(back.Messages?.[0]?.Body ?? '{}')).toEqual({
      orderId: order.id,
      jobId: jobId.toString(),
      generation: 1,
    })
    const [fresh] = await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId))
    expect(fresh).toMatchObject({ state: 'queued', attempts: 0 })
    const [audits] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'job.retry'`,
    )
    expect(audits?.n).toBe(1)
  }, 90_000)
})
