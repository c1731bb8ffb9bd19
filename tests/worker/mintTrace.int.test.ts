import { SpanKind } from '@opentelemetry/api'
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base'
import { eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mintOrders } from '@/db/schema'
import { flushMetricSeries } from '@/lib/ops/flushMetricSeries'
import { type StartTracingReturnType, startTracing } from '@/lib/telemetry/startTracing'
import { withSpan } from '@/lib/telemetry/withSpan'
import { listCounterFamilies } from '@/lib/web/ops/listCounterFamilies'
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

// One mint, one trace, spans from both services. The web is this process (the
// real POST /api/gold/mint handler, the SDK's InMemorySpanExporter, service.name
// mintdesk-web); the worker is a real process exporting OTLP http/json to a receiver in
// this test (service.name mintdesk-worker). The order awaits approval after the intake; the
// approval that enqueues its job runs in a request span (as Next gives each request), and its
// trace context crosses the queue in the job's payload: the worker's attempts join that trace.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('one trace per mint, across the web and the worker', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let u: TestUsers
  let sink: OtlpSink
  let tracing: StartTracingReturnType
  let worker: WorkerProcess | undefined
  let closeWebDb: () => Promise<void> = async () => {}
  const memory = new InMemorySpanExporter()

  beforeAll(async () => {
    ;[t, chain, sink] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 }), startOtlpSink()])
    u = await insertTestUsers(t.db)
    process.env.DATABASE_URL = t.roleUrl('web')
    tracing = await startTracing({ serviceName: 'mintdesk-web', exporter: memory })
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeWebDb = () => getWebDb().close()
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await tracing?.shutdown()
    await closeWebDb()
    await sink?.close()
    await chain?.stop()
    await t?.drop()
  })

  it('the approval that enqueues the job, the pickup, the attempt, KMS Sign, eth_sendRawTransaction and the confirmation share one trace id', async () => {
    expect(tracing.enabled).toBe(true)
    const to = privateKeyToAddress(generatePrivateKey())
    const request = buildMintRequest({ to, vault: 'TRC-1', receiptRef: 'TRACE-1', bars: [{ serial: 'TRC-0001' }] })
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

    const intakeSpans = memory.getFinishedSpans()
    const intake = intakeSpans.find((s) => s.name === 'mint.intake')
    expect(intake, `web spans: ${intakeSpans.map((s) => s.name).join(', ')}`).toBeDefined()
    expect(intakeSpans.find((s) => s.name === 'mint.createOrder')?.spanContext().traceId).toBe(
      intake?.spanContext().traceId,
    )
    // the approvers sign; the approval (pending + its job) in the web's request span
    await withSpan('POST /api/gold/mint/[orderId]/approve', { kind: SpanKind.SERVER }, () =>
      approveWithDevKeys(t.db, { orderId }),
    )
    const web = memory.getFinishedSpans()
    const approval = web.find((s) => s.name === 'POST /api/gold/mint/[orderId]/approve')
    const traceId = approval?.spanContext().traceId ?? ''
    expect(traceId).not.toBe('')
    expect(web.every((s) => s.resource.attributes['service.name'] === 'mintdesk-web')).toBe(true)
    // the intake's latency, measured in this (web) process, flushed to metric_series on the web's own role
    const { getWebDb } = await import('@/lib/web/webProcess')
    await flushMetricSeries(getWebDb().db, { role: 'web' })
    const intakeCount = (await listCounterFamilies(t.db))
      .find((f) => f.name === 'mintdesk_intake_duration_seconds')
      ?.samples.find((s) => s.suffix === '_count')
    expect(intakeCount?.value).toBe(1)

    worker = startWorkerProcess({
      name: 'trace',
      env: workerEnv({
        databaseUrl: t.url,
        chain,
        env: {
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
    console.log(`[trace] ${traceId}: web ${web.map((s) => s.name).join(', ')}; worker ${got.join(', ')}`)
    for (const name of [
      'job.pickup',
      'job mint_send',
      'kms.Sign',
      'eth_sendRawTransaction',
      'mint.mined',
      'mint.confirmed',
    ])
      expect(got, `worker spans of the trace: ${got.join(', ')}`).toContain(name)
    // the signer's confirmer pass is a trace of its own (it serves every order of the signer),
    // linked from the mint's steps
    expect(got.some((n) => n.startsWith('job signer_confirm'))).toBe(false)
    expect(sink.spans().some((s) => s.name === 'job signer_confirm' && s.traceId !== traceId)).toBe(true)
    // the worker's first spans hang under the web's: the job's parent is the approval's span
    const webSpanIds = new Set(web.map((s) => s.spanContext().spanId))
    expect(
      mine.some((s) => s.name === 'job mint_send' && s.parentSpanId !== null && webSpanIds.has(s.parentSpanId)),
    ).toBe(true)
    // nothing of this mint in another trace: every worker span naming the order is in this one
    expect(sink.spans().filter((s) => s.traceId !== traceId && s.name === 'job mint_send')).toEqual([])
  }, 180_000)
})
