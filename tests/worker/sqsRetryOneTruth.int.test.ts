import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { and, eq, sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { chainTxs, jobEvents, jobRecords, mintOrders } from '@/db/schema'
import { retryJob } from '@/lib/web/admin/retryJob'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { listSqsDeadLetters } from '@/lib/web/queue/listSqsDeadLetters'
import { requestSqsDeadLetterRetry } from '@/lib/web/queue/requestSqsDeadLetterRetry'
import { type StartSqsServerReturnType, startSqsServer } from '@/scripts/stack/sqs'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import type { TestOrder } from '@/tests/helpers/orders'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, insertUser, intakeSession } from '@/tests/helpers/users'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { createSqsClient } from '@/worker/sqs/createSqsClient'

// The security review's case, end to end: QUEUE_TRANSPORT=sqs, a real worker process, anvil
// and the embedded SQS endpoint. A mint refused before signing (its recipient left the
// allowlist) dies at its first receive; SQS moves its message to the DLQ and the worker's scan
// lists it. The admin fixes the cause and retries the job from the JOBS page: it mints and
// confirms, the worker's scan deletes the dead letter from the DLQ, and a retry from the
// dead-letter page is refused: one mint, one signature, nothing sent twice, both queues empty.

describe('QUEUE_TRANSPORT=sqs: a dead mint retried from the jobs page leaves nothing in the DLQ', () => {
  let t: TestDatabase
  let web: DbClient
  let chain: ChainFixture
  let sqs: StartSqsServerReturnType
  let client: SQSClient
  let worker: WorkerProcess
  let order: TestOrder

  beforeAll(async () => {
    ;[t, chain, sqs] = await Promise.all([
      createTestDatabase(),
      startChainFixture(),
      startSqsServer({ visibilityTimeoutS: 3, maxReceiveCount: 5, queueName: 'one-truth-test' }),
    ])
    web = createDb({ url: t.roleUrl('web'), max: 2 })
    client = createSqsClient({ region: 'us-east-1', endpoint: sqs.url })
    // through the real intake, its bar on the vault's list (so a retry can hold it again)
    const users = await insertTestUsers(t.db)
    const to = privateKeyToAddress(generatePrivateKey())
    await allowRecipients(t.db, [to])
    await stockBars(t.db, { vault: 'ONE-1', bars: [{ serial: 'ONE-BAR-1' }] })
    const accepted = await createMintOrder(t.db, {
      session: intakeSession(users.staff),
      maxAttempts: 5,
      transport: 'sqs',
      request: buildMintRequest({ to, vault: 'ONE-1', bars: [{ serial: 'ONE-BAR-1' }] }),
    })
    await approveWithDevKeys(t.db, { orderId: accepted.orderId, transport: 'sqs' })
    const [row] = await t.db.select().from(mintOrders).where(eq(mintOrders.id, accepted.orderId))
    if (!row?.jobId) throw new Error('no job')
    order = { id: row.id, toAddress: to, amountWei: BigInt(row.amountWei), jobId: row.jobId }
    // accepted; then, before any worker runs, the recipient leaves the allowlist: the worker refuses to sign it
    await t.db.execute(sql`delete from allowed_recipients where address = ${order.toAddress.toLowerCase()}`)
    worker = startWorkerProcess({
      name: 'sqs-one-truth',
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: {
          QUEUE_TRANSPORT: 'sqs',
          SQS_ENDPOINT: sqs.url,
          SQS_QUEUE_URL: sqs.queueUrl,
          SQS_DLQ_URL: sqs.dlqUrl,
          SQS_VISIBILITY_TIMEOUT_S: '3',
          SQS_WAIT_TIME_S: '1',
          SQS_RELAY_MS: '100',
          SQS_DLQ_SCAN_MS: '500',
        },
      }),
    })
    await worker.waitForLine((l) => l.msg === 'sqs transport started')
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    client?.destroy()
    await web?.close()
    await sqs?.stop()
    await chain?.stop()
    await t?.drop()
  })

  const depth = async (url: string) => {
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
  const orderRow = async () => (await t.db.select().from(mintOrders).where(eq(mintOrders.id, order.id)))[0]
  const jobRow = async () => (await t.db.select().from(jobRecords).where(eq(jobRecords.jobId, order.jobId)))[0]

  it('confirms once, the dead letter is dropped, and the dead-letter page refuses to run it again', async () => {
    const deadLetter = await waitFor(
      async () => (await listSqsDeadLetters(web.db)).find((d) => d.jobId === order.jobId.toString()),
      {
        timeoutMs: 60_000,
        what: `the refused mint's message in the DLQ, listed by the worker (log ${worker.logFile})`,
      },
    )
    expect(deadLetter).toMatchObject({ orderId: order.id, orderStatus: 'failed' })
    expect(await jobRow()).toMatchObject({ state: 'dead' })
    expect(await depth(sqs.dlqUrl)).toBe(1)

    // the admin puts the recipient back and retries the job from the jobs page (as the web's role)
    await allowRecipients(t.db, [order.toAddress])
    const admin = await insertUser(t.db, 'admin')
    await expect(retryJob(web.db, { jobId: order.jobId, actor: admin })).resolves.toMatchObject({ state: 'queued' })

    await waitFor(async () => (await orderRow())?.status === 'confirmed', {
      timeoutMs: 60_000,
      what: `the retried mint confirmed (log ${worker.logFile})`,
    })
    await waitFor(async () => (await jobRow())?.state === 'done', { timeoutMs: 30_000, what: 'the SQS job done' })
    // the worker's scan took the dead letter out of the DLQ, and its row (the scan's transaction commits after it)
    const rowsOfJob = () =>
      t.db.execute(sql`select 1 from sqs_dead_letters where job_id = ${order.jobId.toString()}::bigint`)
    await waitFor(async () => (await depth(sqs.dlqUrl)) === 0 && (await rowsOfJob()).length === 0, {
      timeoutMs: 30_000,
      what: `the dead letter deleted from the DLQ and its row (log ${worker.logFile})`,
    })
    expect(await listSqsDeadLetters(web.db)).toEqual([])

    // a retry from the dead-letter page now: refused, and nothing is sent
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: [deadLetter.messageId], actor: admin })).toEqual({
      retried: [],
      skipped: [{ messageId: deadLetter.messageId, reason: 'not_found' }],
    })
    expect(await requestSqsDeadLetterRetry(web.db, { messageIds: 'all', actor: admin })).toEqual({
      retried: [],
      skipped: [],
    })
    await expect(retryJob(web.db, { jobId: order.jobId, actor: admin })).rejects.toMatchObject({
      code: 'job_not_retryable',
    })
    await new Promise((r) => setTimeout(r, 3_000))
    expect(await depth(sqs.queueUrl)).toBe(0)
    expect(await depth(sqs.dlqUrl)).toBe(0)

    // exactly once: one Minted event, one signed transaction, one signature; one run after the retry
    await verifyMints({ db: t.db, chain, orders: [order] })
    expect(await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))).toHaveLength(1)
    const events = await t.db
      .select()
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, order.jobId)))
      .orderBy(jobEvents.id)
    expect(events.filter((e) => e.event === 'signed')).toHaveLength(1)
    const retriedAt = events.findIndex((e) => e.event === 'retried')
    expect(retriedAt).toBeGreaterThan(0)
    expect(events.slice(retriedAt).filter((e) => e.event === 'started')).toHaveLength(1)
    expect(events.filter((e) => e.event === 'succeeded')).toHaveLength(1)
  }, 180_000)
})
