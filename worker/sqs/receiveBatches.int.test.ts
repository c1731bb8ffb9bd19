import {
  type DeleteMessageBatchCommandInput,
  type DeleteMessageBatchCommandOutput,
  GetQueueAttributesCommand,
  type ReceiveMessageCommandOutput,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { and, inArray, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { jobEvents, jobRecords } from '@/db/schema'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { type StartSqsServerReturnType, startSqsServer } from '../../scripts/stack/sqs'
import { createTestDatabase, type TestDatabase } from '../../tests/helpers/db'
import { insertOrder } from '../../tests/helpers/orders'
import { insertUser } from '../../tests/helpers/users'
import { waitFor } from '../../tests/helpers/waitFor'
import { createSendBatcher } from '../mint/createSendBatcher'
import type { SendOrder, SendOutcome } from '../mint/sendOutcome'
import { createLogger } from '../runtime/logger'
import { relayOutbox } from './relayOutbox'
import { sqsMessageHandler } from './sqsMessageHandler'
import { sqsMintSend } from './sqsMintSend'
import { startSqsConsumer } from './startSqsConsumer'

// The SQS path in batches: the relay stamps a SendMessageBatch's rows in one statement; a receive
// of 10 messages is one ReceiveMessage call whose orders go out in one send batch, and under a backlog
// a full receive is topped up into a group of up to groupSize that goes out as one send batch (the process's
// send batcher, the one graphile-worker's path uses, with a send step that records its batches);
// a DeleteMessageBatch entry SQS refuses (twice: the consumer tries once more) leaves its message
// to come back, and its job, done, is deleted unrun: minted once.

let t: TestDatabase
let server: StartSqsServerReturnType
let client: SQSClient
const log = createLogger({ level: 'silent' })
const VISIBILITY_S = 2

// a queue of its own per test: the emulator keeps a stopped consumer's open long poll running to its end, and it
// would take (and count a receive of) the next test's first messages
beforeEach(async () => {
  server = await startSqsServer({ visibilityTimeoutS: VISIBILITY_S, queueName: 'batch-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterEach(async () => {
  client?.destroy()
  await server?.stop()
})

beforeAll(async () => {
  t = await createTestDatabase()
  // every UPDATE statement on the outbox counted, however many rows it touches
  await t.db.execute(sql`
    create table outbox_update_statements (n int not null);
    create function count_outbox_update() returns trigger language plpgsql as $$
      begin insert into outbox_update_statements values (1); return null; end $$;
    create trigger count_outbox_update after update on sqs_outbox
      for each statement execute function count_outbox_update()`)
})

afterAll(async () => {
  await t?.drop()
})

async function queuedOrders(n: number): Promise<{ orderId: string; jobId: bigint }[]> {
  const user = await insertUser(t.db, 'staff')
  const out: { orderId: string; jobId: bigint }[] = []
  for (let i = 0; i < n; i++) {
    const order = await insertOrder(t.db, { requestedBy: user.id })
    const { jobId } = await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'sqs', orderId: order.id, maxAttempts: 5, actor: 'test' }),
    )
    out.push({ orderId: order.id, jobId })
  }
  return out
}

async function updateStatements(): Promise<number> {
  const [row] = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from outbox_update_statements`)
  return Number(row?.n ?? 0)
}

async function queueEmpty(): Promise<boolean> {
  const a = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: server.queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  )
  return (
    a.Attributes?.ApproximateNumberOfMessages === '0' && a.Attributes?.ApproximateNumberOfMessagesNotVisible === '0'
  )
}

/** The process's send batcher over a send step that settles every order and records each batch it was given. */
function recordingBatcher(batches: SendOrder[][]) {
  return createSendBatcher({
    maxBatch: 50,
    lingerMs: 10,
    backlogGates: 1,
    run: async ({ orders, opened }) => {
      batches.push([...orders])
      opened()
      return new Map<string, SendOutcome>(orders.map((o) => [o.orderId, { kind: 'settled', status: 'confirmed' }]))
    },
  })
}

/** The receives that brought messages, by their size. */
function countReceives(c: SQSClient, sizes: number[]): void {
  c.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args)
      if (context.commandName === 'ReceiveMessageCommand') {
        const n = (result.output as ReceiveMessageCommandOutput).Messages?.length ?? 0
        if (n > 0) sizes.push(n)
      }
      return result
    },
    { step: 'initialize', name: 'countReceives' },
  )
}

/**
 * `count` queued orders relayed to the queue, then worked by a consumer (with `concurrency` and `groupSize`) until the
 * queue is empty: the sizes of its receives and the send batches its mints went out in.
 */
async function drainThroughConsumer(p: { count: number; concurrency: number; groupSize?: number }) {
  const jobs = await queuedOrders(p.count)
  expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(p.count)
  const receives: number[] = []
  const counted = createSqsClient({ region: 'us-east-1', endpoint: server.url })
  countReceives(counted, receives)
  const batches: SendOrder[][] = []
  const consumer = startSqsConsumer(counted, {
    queueUrl: server.queueUrl,
    concurrency: p.concurrency,
    groupSize: p.groupSize,
    visibilityTimeoutS: VISIBILITY_S,
    waitTimeS: 1,
    handle: sqsMessageHandler({ db: t.db, log, workerId: () => 'batch-test' }, sqsMintSend(recordingBatcher(batches)), {
      maxReceiveCount: 5,
    }),
    log,
  })
  try {
    await waitFor(queueEmpty, { timeoutMs: 20_000, what: `the ${p.count} messages deleted` })
  } finally {
    await consumer.stop(5_000)
    counted.destroy()
  }
  return { jobs, receives, batches }
}

/** The history rows of `jobs`: state and attempts. */
async function recordsOf(jobs: { jobId: bigint }[]) {
  return t.db
    .select({ state: jobRecords.state, attempts: jobRecords.attempts })
    .from(jobRecords)
    .where(
      inArray(
        jobRecords.jobId,
        jobs.map((j) => j.jobId),
      ),
    )
}

describe('the SQS path in batches', () => {
  it('the relay sends a pass of up to 50 rows in SendMessageBatch calls of 10 and stamps them in one statement', async () => {
    const jobs = await queuedOrders(12)
    const before = await updateStatements()
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl, limit: 10 })).toBe(10)
    expect(await updateStatements()).toBe(before + 1)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(2)
    expect(await updateStatements()).toBe(before + 2)
    const rows = await t.db.execute<{ sent: number; with_id: number }>(sql`
      select count(*) filter (where sent_at is not null)::int as sent,
        count(*) filter (where message_id is not null and sends = 1)::int as with_id
      from sqs_outbox where job_id = any(${`{${jobs.map((j) => j.jobId).join(',')}}`}::bigint[])`)
    expect(rows[0]).toEqual({ sent: 12, with_id: 12 })

    // the 12 messages worked and deleted, for the next test's empty queue
    const batches: SendOrder[][] = []
    const consumer = startSqsConsumer(client, {
      queueUrl: server.queueUrl,
      concurrency: 50,
      visibilityTimeoutS: VISIBILITY_S,
      waitTimeS: 1,
      handle: sqsMessageHandler(
        { db: t.db, log, workerId: () => 'batch-test' },
        sqsMintSend(recordingBatcher(batches)),
        {
          maxReceiveCount: 5,
        },
      ),
      log,
    })
    try {
      await waitFor(queueEmpty, { timeoutMs: 20_000, what: 'the 12 messages deleted' })
    } finally {
      await consumer.stop(5_000)
    }
    expect(
      batches
        .flat()
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(jobs.map((j) => j.orderId).sort())
  }, 60_000)

  it('a receive of 10 messages is one ReceiveMessage call, and its mints go out in one send batch', async () => {
    const { jobs, receives, batches } = await drainThroughConsumer({ count: 10, concurrency: 50 })
    expect(receives).toEqual([10])
    expect(batches).toHaveLength(1)
    expect(batches[0]?.map((o) => o.orderId).sort()).toEqual(jobs.map((j) => j.orderId).sort())
    expect(batches[0]?.every((o) => o.attempt === 1)).toBe(true)
    expect(await recordsOf(jobs)).toEqual(Array(10).fill({ state: 'done', attempts: 1 }))
  }, 60_000)

  it('a backlog is worked in groups: a full receive is topped up by short polls and its 30 mints go out in one send batch', async () => {
    const { jobs, receives, batches } = await drainThroughConsumer({ count: 30, concurrency: 100, groupSize: 50 })
    expect(receives.reduce((a, n) => a + n, 0)).toBe(30)
    expect(batches).toHaveLength(1)
    expect(batches[0]?.map((o) => o.orderId).sort()).toEqual(jobs.map((j) => j.orderId).sort())
    expect(await recordsOf(jobs)).toEqual(Array(30).fill({ state: 'done', attempts: 1 }))
  }, 60_000)

  it('a DeleteMessageBatch entry refused twice leaves its message to come back, and it is not minted twice', async () => {
    const jobs = await queuedOrders(3)
    expect(await relayOutbox(t.db, client, { queueUrl: server.queueUrl })).toBe(3)
    const refusing = createSqsClient({ region: 'us-east-1', endpoint: server.url })
    // the first entry of the first two DeleteMessageBatch calls (the call, then the consumer's second try) refused
    let refusals = 0
    const refusedHandles: string[] = []
    refusing.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'DeleteMessageBatchCommand' || refusals >= 2) return next(args)
        refusals++
        const input = args.input as DeleteMessageBatchCommandInput
        const [refused, ...rest] = input.Entries ?? []
        if (!refused?.ReceiptHandle) return next(args)
        refusedHandles.push(refused.ReceiptHandle)
        const failed = { Id: refused.Id, SenderFault: false, Code: 'InternalError', Message: 'refused by the test' }
        if (rest.length === 0)
          return { output: { Successful: [], Failed: [failed], $metadata: {} }, response: {} } as Awaited<
            ReturnType<typeof next>
          >
        const result = await next({ ...args, input: { ...input, Entries: rest } })
        const output = result.output as DeleteMessageBatchCommandOutput
        return { ...result, output: { ...output, Failed: [...(output.Failed ?? []), failed] } }
      },
      { step: 'initialize', name: 'refuseOneDelete' },
    )
    const batches: SendOrder[][] = []
    const consumer = startSqsConsumer(refusing, {
      queueUrl: server.queueUrl,
      concurrency: 50,
      visibilityTimeoutS: VISIBILITY_S,
      waitTimeS: 1,
      handle: sqsMessageHandler(
        { db: t.db, log, workerId: () => 'batch-test' },
        sqsMintSend(recordingBatcher(batches)),
        {
          maxReceiveCount: 5,
        },
      ),
      log,
    })
    try {
      // the refused message comes back after its visibility timeout and is then deleted unrun
      await waitFor(async () => refusals === 2 && (await queueEmpty()), {
        timeoutMs: 30_000,
        what: 'every message deleted, the refused one at its second receive',
      })
    } finally {
      await consumer.stop(5_000)
      refusing.destroy()
    }
    expect(refusedHandles).toHaveLength(2)
    expect(refusedHandles[0]).toBe(refusedHandles[1])
    // each order handed to the send path once: the returning message found its job done
    expect(
      batches
        .flat()
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(jobs.map((j) => j.orderId).sort())
    const events = await t.db
      .select({ jobId: jobEvents.jobId, event: jobEvents.event })
      .from(jobEvents)
      .where(
        and(
          inArray(
            jobEvents.jobId,
            jobs.map((j) => j.jobId),
          ),
          inArray(jobEvents.event, ['started', 'succeeded']),
        ),
      )
    expect(events).toHaveLength(6)
    expect(await recordsOf(jobs)).toEqual(Array(3).fill({ state: 'done', attempts: 1 }))
  }, 60_000)
})
