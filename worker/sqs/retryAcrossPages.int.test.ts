import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createDb, type DbClient } from '@/db/client'
import { jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { PermanentJobError } from '@/lib/errors/jobs'
import { TASK } from '@/lib/jobs/jobKeys'
import { cancelJob } from '@/lib/web/admin/cancelJob'
import { retryJob } from '@/lib/web/admin/retryJob'
import { retryJobs } from '@/lib/web/admin/retryJobs'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { listSqsDeadLetters } from '@/lib/web/queue/listSqsDeadLetters'
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

// The jobs page and the SQS dead-letter page, one truth (security review), against the
// embedded SQS endpoint with the real SDK, the real relay, consumer, handler and DLQ scan
// (a task that fails or succeeds on cue stands for the send), the web's operations as
// mintdesk_web: a retry or a cancel on either page makes every older message of the job
// stale, so nothing is run twice and neither page offers what the other already did.

let t: TestDatabase
let web: DbClient
let worker: DbClient
let server: StartSqsServerReturnType
let client: SQSClient
let admin: { id: string; email: string }
const log = createLogger({ level: 'silent' })

beforeAll(async () => {
  t = await createTestDatabase()
  web = createDb({ url: t.roleUrl('web'), max: 2 })
  worker = createDb({ url: t.roleUrl('worker'), max: 4 })
  server = await startSqsServer({ visibilityTimeoutS: 2, maxReceiveCount: 5, queueName: 'retry-pages-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
  admin = await insertUser(t.db, 'admin')
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
  await web?.close()
  await worker?.close()
  await t?.drop()
})

async function depth(url: string): Promise<number> {
  const a = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  )
  return (
    Number(a.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  )
}

/** an SQS mint_send of a new pending order, relayed to the queue */
async function queuedOrder(): Promise<{ orderId: string; jobId: bigint }> {
  const staff = await insertUser(t.db, 'staff')
  const order = await insertOrder(t.db, { requestedBy: staff.id })
  const { jobId } = await t.db.transaction((tx) =>
    enqueueMintSend(tx, { transport: 'sqs', orderId: order.id, maxAttempts: 5, actor: 'staff@test' }),
  )
  await t.db.update(mintOrders).set({ jobId }).where(eq(mintOrders.id, order.id))
  expect(await relayOutbox(worker.db, client, { queueUrl: server.queueUrl })).toBe(1)
  return { orderId: order.id, jobId }
}

/** the handler, over a task that refuses every order in `refuse` (permanently) and counts the runs of the others */
function handlerOf(p: { refuse: Set<string>; runs: Map<string, number> }) {
  const task = {
    name: TASK.mintSend,
    payload: z.object({ orderId: z.guid() }),
    orderIdOf: (x: { orderId: string }) => x.orderId,
    run: async (_ctx: unknown, job: { payload: { orderId: string } }) => {
      const id = job.payload.orderId
      if (p.refuse.has(id)) throw new PermanentJobError('refused: the recipient 0x90F7... is not on the allowlist')
      p.runs.set(id, (p.runs.get(id) ?? 0) + 1)
    },
  }
  const ctx = { db: worker.db, log, workerId: () => 'pages-test-worker' }
  return sqsMessageHandler(ctx, task, { maxReceiveCount: 5, retryDelayS: () => 0 })
}

/** a consumer of the queue with that handler */
function consume(p: { refuse: Set<string>; runs: Map<string, number> }) {
  return startSqsConsumer(client, {
    queueUrl: server.queueUrl,
    concurrency: 2,
    visibilityTimeoutS: 2,
    waitTimeS: 1,
    handle: handlerOf(p),
    log,
  })
}

const stateOf = async (jobId: bigint) =>
  (await t.db.select({ state: jobRecords.state }).from(jobRecords).where(eq(jobRecords.jobId, jobId)))[0]?.state
const statusOf = async (orderId: string) =>
  (await t.db.select({ status: mintOrders.status }).from(mintOrders).where(eq(mintOrders.id, orderId)))[0]?.status
const eventsOf = async (jobId: bigint, event: string) =>
  t.db
    .select()
    .from(jobEvents)
    .where(and(eq(jobEvents.jobId, jobId), eq(jobEvents.event, event)))
const scan = () => scanDeadLetterQueue(worker.db, client, { queueUrl: server.queueUrl, dlqUrl: server.dlqUrl })

/** the job dead after its refusal, its message received until SQS moves it to the DLQ, and listed there */
async function deadLetterOf(orderId: string, jobId: bigint): Promise<string> {
  const consumer = consume({ refuse: new Set([orderId]), runs: new Map() })
  try {
    return await waitFor(
      async () => {
        await scan()
        return (await listSqsDeadLetters(web.db)).find((d) => d.jobId === jobId.toString())?.messageId
      },
      { timeoutMs: 30_000, what: `the message of job ${jobId} in the DLQ, listed` },
    )
  } finally {
    await consumer.stop(5_000)
    expect(await stateOf(jobId)).toBe('dead')
  }
}

describe('SQS jobs retried or cancelled on the jobs page or the dead-letter page', () => {
  it("the jobs page's retry while the dead message is still on its way to the DLQ: it is deleted unrun, the new one runs once", async () => {
    const { orderId, jobId } = await queuedOrder()
    const refuse = new Set([orderId])
    const runs = new Map<string, number>()
    // its first receive refuses it for good: dead, and the message visible again, still in the queue
    const got = await client.send(
      new ReceiveMessageCommand({ QueueUrl: server.queueUrl, WaitTimeSeconds: 2, VisibilityTimeout: 30 }),
    )
    const [message] = got.Messages ?? []
    if (!message?.MessageId || !message.ReceiptHandle) throw new Error('no message')
    const outcomes = await handlerOf({ refuse, runs })([
      {
        messageId: message.MessageId,
        body: message.Body ?? '',
        receiveCount: 1,
        sentAt: null,
        traceparent: undefined,
        signal: new AbortController().signal,
      },
    ])
    expect(outcomes).toEqual([{ kind: 'release', afterS: 0 }])
    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: server.queueUrl,
        ReceiptHandle: message.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    )
    expect(await stateOf(jobId)).toBe('dead')
    expect(await statusOf(orderId)).toBe('failed')
    expect(await depth(server.queueUrl)).toBe(1) // the dead message, not yet moved to the DLQ

    // today's fix, from the jobs page: a new message of generation 1, the old one stale
    const retried = await retryJobs(web.db, { jobIds: [jobId], actor: admin })
    expect(retried).toMatchObject({ retried: [{ jobId: jobId.toString(), orderStatus: 'pending' }], skipped: [] })
    expect(await relayOutbox(worker.db, client, { queueUrl: server.queueUrl })).toBe(1)
    expect(await depth(server.queueUrl)).toBe(2)

    refuse.clear()
    const second = consume({ refuse, runs })
    try {
      await waitFor(async () => (await stateOf(jobId)) === 'done', { timeoutMs: 20_000, what: 'the retried job done' })
      await waitFor(async () => (await depth(server.queueUrl)) === 0, {
        timeoutMs: 20_000,
        what: 'the stale message deleted',
      })
      await new Promise((r) => setTimeout(r, 2_500))
    } finally {
      await second.stop(5_000)
    }
    expect(runs.get(orderId)).toBe(1)
    expect(await depth(server.dlqUrl)).toBe(0)
    const retriedAt = (await eventsOf(jobId, 'retried'))[0]?.at ?? new Date(0)
    const startedAfter = (await eventsOf(jobId, 'started')).filter((e) => e.at > retriedAt)
    expect(startedAfter.map((e) => e.attempt)).toEqual([1])
  }, 90_000)

  it('the jobs page retries (in bulk) a job whose message is in the DLQ: the scan drops it, the dead-letter page refuses it', async () => {
    const { orderId, jobId } = await queuedOrder()
    const messageId = await deadLetterOf(orderId, jobId)
    // the bulk retry of the jobs page, by filter: SQS jobs included
    expect(await retryJobs(web.db, { state: 'dead', task: TASK.mintSend, actor: admin })).toMatchObject({
      retried: [{ jobId: jobId.toString(), orderStatus: 'pending' }],
      skipped: [],
      truncated: false,
    })
    // one truth at once: no longer listed nor counted, and a retry from the DLQ page refused
    expect(await listSqsDeadLetters(web.db)).toEqual([])
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: [messageId], actor: admin })).toEqual({
      retried: [],
      skipped: [{ messageId, reason: 'not_dead', jobState: 'queued' }],
    })
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: 'all', actor: admin })).toEqual({
      retried: [],
      skipped: [],
    })
    // the worker's next scan deletes it from the DLQ; the relay sends the one new message
    expect(await scan()).toEqual({ listed: 0, moved: 0, dropped: 1, complete: true })
    expect(await depth(server.dlqUrl)).toBe(0)
    expect(await relayOutbox(worker.db, client, { queueUrl: server.queueUrl })).toBe(1)
    const runs = new Map<string, number>()
    const consumer = consume({ refuse: new Set(), runs })
    try {
      await waitFor(async () => (await stateOf(jobId)) === 'done', { timeoutMs: 20_000, what: 'the job done' })
    } finally {
      await consumer.stop(5_000)
    }
    expect(runs.get(orderId)).toBe(1)
    expect(await depth(server.queueUrl)).toBe(0)
    // after it is done, a retry from either page is refused
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: [messageId], actor: admin })).toMatchObject({
      retried: [],
      skipped: [{ reason: 'not_found' }],
    })
    await expect(retryJob(web.db, { jobId, actor: admin })).rejects.toMatchObject({ code: 'job_not_retryable' })
  }, 90_000)

  it('the dead-letter page retries first: the jobs page then refuses, and the job runs once', async () => {
    const { orderId, jobId } = await queuedOrder()
    const messageId = await deadLetterOf(orderId, jobId)
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: [messageId], actor: admin })).toEqual({
      retried: [messageId],
      skipped: [],
    })
    await expect(retryJob(web.db, { jobId, actor: admin })).rejects.toMatchObject({ code: 'job_not_retryable' })
    expect(await retryJobs(web.db, { state: 'dead', task: TASK.mintSend, actor: admin })).toMatchObject({ retried: [] })
    expect(await scan()).toMatchObject({ dropped: 1 })
    expect(await relayOutbox(worker.db, client, { queueUrl: server.queueUrl })).toBe(1)
    const runs = new Map<string, number>()
    const consumer = consume({ refuse: new Set(), runs })
    try {
      await waitFor(async () => (await stateOf(jobId)) === 'done', { timeoutMs: 20_000, what: 'the job done' })
    } finally {
      await consumer.stop(5_000)
    }
    expect(runs.get(orderId)).toBe(1)
    expect(await depth(server.dlqUrl)).toBe(0)
  }, 90_000)

  it('the jobs page cancels a job whose message is in the DLQ: the order is cancelled, the message dropped, never retried', async () => {
    const { orderId, jobId } = await queuedOrder()
    const messageId = await deadLetterOf(orderId, jobId)
    const cancelled = await cancelJob(web.db, { jobId, actor: admin })
    expect(cancelled).toMatchObject({
      state: 'cancelled',
      orderStatus: 'cancelled',
      cancelledJobIds: [jobId.toString()],
    })
    expect(await stateOf(jobId)).toBe('cancelled')
    expect(await listSqsDeadLetters(web.db)).toEqual([])
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: [messageId], actor: admin })).toEqual({
      retried: [],
      skipped: [{ messageId, reason: 'not_dead', jobState: 'cancelled' }],
    })
    expect(await scan()).toEqual({ listed: 0, moved: 0, dropped: 1, complete: true })
    expect(await depth(server.dlqUrl)).toBe(0)
    expect(await relayOutbox(worker.db, client, { queueUrl: server.queueUrl })).toBe(0)
    expect(await depth(server.queueUrl)).toBe(0)
    expect(await statusOf(orderId)).toBe('cancelled')
    await expect(cancelJob(web.db, { jobId, actor: admin })).rejects.toMatchObject({ code: 'job_not_cancellable' })
  }, 90_000)
})
