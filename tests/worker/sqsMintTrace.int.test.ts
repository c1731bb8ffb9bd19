import { SpanKind } from '@opentelemetry/api'
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base'
import { eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { jobRecords, mintOrders, sqsOutbox } from '@/db/schema'
import { type StartTracingReturnType, startTracing } from '@/lib/telemetry/startTracing'
import { withSpan } from '@/lib/telemetry/withSpan'
import { type StartSqsServerReturnType, startSqsServer } from '@/scripts/stack/sqs'
import { sessionStore } from '@/tests/attack/fakeSession'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { type OtlpSink, startOtlpSink } from '@/tests/helpers/startOtlpSink'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// With QUEUE_TRANSPORT=sqs: one mint, one trace, spans from both
// services. The web is this process (the real POST /api/gold/mint handler, the SDK's
// InMemorySpanExporter, service.name mintdesk-web); the worker is a real process with the
// SQS transport on the embedded endpoint, exporting OTLP http/json to a receiver here. The
// order awaits approval after the intake; the approval that enqueues its job runs in a request
// span (as Next gives each request), and its trace context goes into the outbox row, from the
// relay into the message attribute `traceparent`, and the
// consumer opens the message's job span under it.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('one trace per mint with the SQS transport, across the web and the worker', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let sqs: StartSqsServerReturnType
  let u: TestUsers
  let sink: OtlpSink
  let tracing: StartTracingReturnType
  let worker: WorkerProcess | undefined
  let closeWebDb: () => Promise<void> = async () => {}
  const memory = new InMemorySpanExporter()

  beforeAll(async () => {
    ;[t, chain, sink, sqs] = await Promise.all([
      createTestDatabase(),
      startChainFixture({ signers: 1 }),
      startOtlpSink(),
      startSqsServer({ queueName: 'trace-test' }),
    ])
    u = await insertTestUsers(t.db)
    process.env.DATABASE_URL = t.roleUrl('web')
    process.env.QUEUE_TRANSPORT = 'sqs'
    tracing = await startTracing({ serviceName: 'mintdesk-web', exporter: memory })
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeWebDb = () => getWebDb().close()
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await tracing?.shutdown()
    await closeWebDb()
    await sink?.close()
    await sqs?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('the approval, the outbox, the SQS receive, KMS Sign, eth_sendRawTransaction and the confirmation share one trace id', async () => {
    expect(tracing.enabled).toBe(true)
    const to = privateKeyToAddress(generatePrivateKey())
    const request = buildMintRequest({ to, vault: 'TRS-1', receiptRef: 'TRACE-SQS-1', bars: [{ serial: 'TRS-0001' }] })
    await stockBarsOf(t.db, request)
    await allowRecipients(t.db, [to])
    const { POST } = (await import('@/app/api/gold/mint/route')) as { POST: Handler }
    const res = await sessionStore.run(u.staff, () =>
      POST(
        new Request('http://localhost:3000/api/gold/mint', {
          method: 'POST',
          headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' },
          body: JSON.stringify(request),
        }),
        {
          params: Promise.resolve({}),
        },
      ),
    )
    expect(res.status).toBe(202)
    const { orderId } = (await res.json()) as { orderId: string }
    const intake = memory.getFinishedSpans().find((s) => s.name === 'mint.intake')
    expect(
      intake,
      `web spans: ${memory
        .getFinishedSpans()
        .map((s) => s.name)
        .join(', ')}`,
    ).toBeDefined()
    // the approvers sign; the approval (pending + its outbox row) in the web's request span
    const jobId = (
      await withSpan('POST /api/gold/mint/[orderId]/approve', { kind: SpanKind.SERVER }, () =>
        approveWithDevKeys(t.db, { orderId, transport: 'sqs' }),
      )
    ).toString()

    const web = memory.getFinishedSpans()
    const approval = web.find((s) => s.name === 'POST /api/gold/mint/[orderId]/approve')
    const traceId = approval?.spanContext().traceId ?? ''
    expect(traceId).not.toBe('')
    expect(web.every((s) => s.resource.attributes['service.name'] === 'mintdesk-web')).toBe(true)
    // the order went through the outbox (no graphile job), and its row and history carry the approval's trace
    const [outbox] = await t.db.select().from(sqsOutbox).where(eq(sqsOutbox.orderId, orderId))
    expect(outbox?.jobId.toString()).toBe(jobId)
    expect(outbox?.payload).toMatchObject({ orderId, jobId, traceparent: expect.stringContaining(`00-${traceId}-`) })
    const [record] = await t.db
      .select()
      .from(jobRecords)
      .where(eq(jobRecords.jobId, BigInt(jobId)))
    expect(record?.payload).toMatchObject({ orderId, traceparent: expect.stringContaining(`00-${traceId}-`) })

    worker = startWorkerProcess({
      name: 'sqs-trace',
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: {
          QUEUE_TRANSPORT: 'sqs',
          SQS_ENDPOINT: sqs.url,
          SQS_QUEUE_URL: sqs.queueUrl,
          SQS_DLQ_URL: sqs.dlqUrl,
          SQS_WAIT_TIME_S: '1',
          SQS_RELAY_MS: '100',
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        },
      }),
    })
    await waitFor(
      async () =>
        (await t.db.select({ status: mintOrders.status }).from(mintOrders).where(eq(mintOrders.id, orderId)))[0]
          ?.status === 'confirmed',
      {
        timeoutMs: 60_000,
        intervalMs: 200,
        what: `the order confirmed (log: ${worker.logFile})`,
      },
    )
    await waitFor(
      async () =>
        (
          await t.db
            .select({ state: jobRecords.state })
            .from(jobRecords)
            .where(eq(jobRecords.jobId, BigInt(jobId)))
        )[0]?.state === 'done',
      {
        timeoutMs: 20_000,
        what: 'the SQS job done',
      },
    )
    const names = () =>
      sink
        .spans()
        .filter((s) => s.traceId === traceId)
        .map((s) => s.name)
    await waitFor(async () => names().includes('mint.confirmed'), {
      timeoutMs: 20_000,
      what: `the confirmation's span (got: ${names().join(', ')})`,
    })
    expect(await worker.stop('SIGTERM')).toEqual({ code: 0, signal: null })

    const mine = sink.spans().filter((s) => s.traceId === traceId)
    expect(new Set(mine.map((s) => s.service))).toEqual(new Set(['mintdesk-worker']))
    const got = mine.map((s) => s.name)
    console.log(`[sqs trace] ${traceId}: web ${web.map((s) => s.name).join(', ')}; worker ${got.join(', ')}`)
    for (const name of [
      'job.pickup',
      'job mint_send',
      'kms.Sign',
      'eth_sendRawTransaction',
      'mint.mined',
      'mint.confirmed',
    ])
      expect(got, `worker spans of the trace: ${got.join(', ')}`).toContain(name)
    // the SQS receive's span hangs under the web's: its parent is the approval's span, whose context went into
    // the message
    const webSpanIds = new Set(web.map((s) => s.spanContext().spanId))
    expect(
      mine.some((s) => s.name === 'job mint_send' && s.parentSpanId !== null && webSpanIds.has(s.parentSpanId)),
    ).toBe(true)
    // one receive, one job span, none in another trace
    expect(got.filter((n) => n === 'job mint_send')).toHaveLength(1)
    expect(sink.spans().filter((s) => s.traceId !== traceId && s.name === 'job mint_send')).toEqual([])
  }, 180_000)
})
