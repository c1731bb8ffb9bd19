import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs'
import { eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { type StartSqsServerReturnType, startSqsServer } from '@/scripts/stack/sqs'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { createSqsClient } from '@/worker/sqs/createSqsClient'

// QUEUE_TRANSPORT=sqs, the real worker processes: the outbox row is relayed to the
// embedded SQS endpoint, a worker receives the message and SIGKILLs itself right after
// signing (failpoint after_sign). Its visibility heartbeat dies with it, so the message
// comes back after its visibility timeout (3 s here), a second worker receives it (receive
// count 2), re-sends the stored bytes, and the order is minted exactly once.

describe('QUEUE_TRANSPORT=sqs: a worker SIGKILLed mid-message', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let sqs: StartSqsServerReturnType
  const workers: WorkerProcess[] = []

  beforeAll(async () => {
    ;[t, chain, sqs] = await Promise.all([
      createTestDatabase(),
      startChainFixture(),
      startSqsServer({ visibilityTimeoutS: 3, queueName: 'crash-test' }),
    ])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await sqs?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('the message comes back after its visibility timeout and the order is minted exactly once', async () => {
    const env = workerEnv({
      databaseUrl: t.url,
      chain,
      env: {
        WORKER_CONCURRENCY: '1',
        QUEUE_TRANSPORT: 'sqs',
        SQS_ENDPOINT: sqs.url,
        SQS_QUEUE_URL: sqs.queueUrl,
        SQS_DLQ_URL: sqs.dlqUrl,
        SQS_VISIBILITY_TIMEOUT_S: '3',
        SQS_WAIT_TIME_S: '1',
        SQS_RELAY_MS: '100',
        SQS_DLQ_SCAN_MS: '1000',
      },
    })
    const victim = startWorkerProcess({ name: 'sqs-victim', env: { ...env, MINTDESK_FAILPOINTS: 'after_sign' } })
    workers.push(victim)
    await victim.waitForLine((l) => l.msg === 'sqs transport started')
    const [order] = await createTestOrders(t.db, {
      count: 1,
      to: [privateKeyToAddress(generatePrivateKey())],
      transport: 'sqs',
    })
    if (!order) throw new Error('no order')

    const death = await victim.exited
    const killedAt = Date.now()
    expect(death.signal).toBe('SIGKILL')
    const [stored] = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
    expect(stored, 'the signed transaction was stored before the crash').toBeDefined()

    const rescuer = startWorkerProcess({ name: 'sqs-rescuer', env })
    workers.push(rescuer)
    await waitFor(
      async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status === 'confirmed',
      {
        timeoutMs: 60_000,
        what: `order ${order.id} confirmed (logs: ${rescuer.logFile})`,
      },
    )
    await waitFor(
      async () => (await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, order.jobId)))[0]?.state === 'done',
      {
        timeoutMs: 30_000,
        what: 'the SQS job done',
      },
    )
    const tookMs = Date.now() - killedAt

    // one signed mint, re-sent by the second receive, never signed again
    const txs = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
    expect(txs.map((x) => x.hash)).toEqual([stored?.hash])
    const events = await t.db.select().from(jobEvents).where(eq(jobEvents.jobId, order.jobId))
    expect(events.filter((e) => e.event === 'signed')).toHaveLength(1)
    expect(events.filter((e) => e.event === 'started').map((e) => e.attempt)).toEqual([1, 2])
    const [record] = await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, order.jobId))
    expect(record).toMatchObject({ state: 'done', attempts: 2 })
    await verifyMints({ db: t.db, chain, orders: [order] })

    // nothing left in either queue
    const client = createSqsClient({ region: 'us-east-1', endpoint: sqs.url })
    try {
      for (const url of [sqs.queueUrl, sqs.dlqUrl]) {
        const a = await client.send(
          new GetQueueAttributesCommand({
            QueueUrl: url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        )
        expect(a.Attributes).toMatchObject({
          ApproximateNumberOfMessages: '0',
          ApproximateNumberOfMessagesNotVisible: '0',
        })
      }
    } finally {
      client.destroy()
    }
    console.log(`[sqs crash] order confirmed and its SQS job done ${tookMs} ms after the SIGKILL`)
  }, 120_000)
})
