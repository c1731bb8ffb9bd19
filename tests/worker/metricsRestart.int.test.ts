import { inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mintOrders } from '@/db/schema'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders } from '@/tests/helpers/orders'
import { type ParsedFamily, parsePrometheusText } from '@/tests/helpers/parsePrometheusText'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// GET /api/metrics through its real handler, against real worker processes on
// anvil and Postgres. The text must pass the strict reader (HELP/TYPE once, histograms
// cumulative with +Inf = _count), and no counter series may ever go down: not across a
// graceful restart of the worker, not across a SIGKILL.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

const METRICS_TOKEN = 'metrics-restart-test-token-0123456789abcdef'
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('counters and histograms across worker restarts', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let metricsRoute: Handler
  let closeWebDb: () => Promise<void> = async () => {}
  const workers: WorkerProcess[] = []
  const to = [privateKeyToAddress(generatePrivateKey())]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
    Object.assign(process.env, {
      DATABASE_URL: t.roleUrl('web'),
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      TOKEN_ADDRESS: chain.tokenAddress,
      METRICS_TOKEN,
      RPC_POLLING_MS: '100',
    })
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeWebDb = () => getWebDb().close()
    metricsRoute = (await import('@/app/api/metrics/route')).GET as Handler
  }, 120_000)

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await closeWebDb()
    await chain?.stop()
    await t?.drop()
  })

  async function scrape(): Promise<Map<string, ParsedFamily>> {
    const res = await metricsRoute(
      new Request('http://localhost:3000/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
      { params: Promise.resolve({}) },
    )
    expect(res.status).toBe(200)
    return parsePrometheusText(await res.text())
  }

  /** every counter sample and histogram _count/_bucket of `before`: present in `after`, not lower */
  function expectNothingDecreased(
    before: Map<string, ParsedFamily>,
    after: Map<string, ParsedFamily>,
    when: string,
  ): void {
    for (const f of before.values()) {
      if (f.type !== 'counter' && f.type !== 'histogram') continue
      for (const s of f.samples) {
        const key = JSON.stringify(Object.entries(s.labels).sort())
        const later = after
          .get(f.name)
          ?.samples.find((x) => x.name === s.name && JSON.stringify(Object.entries(x.labels).sort()) === key)
        expect(later, `${when}: ${s.name}${key} disappeared`).toBeDefined()
        expect(later?.value ?? -1, `${when}: ${s.name}${key} went down`).toBeGreaterThanOrEqual(s.value)
      }
    }
  }

  const value = (m: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}) =>
    m
      .get(name.replace(/_(bucket|sum|count)$/, ''))
      ?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ??
    m.get(name)?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ??
    0

  async function mintAndWait(worker: WorkerProcess, count: number): Promise<void> {
    const orders = await createTestOrders(t.db, { count, to })
    const ids = orders.map((o) => o.id)
    await waitFor(
      async () => {
        const rows = await t.db
          .select({ status: mintOrders.status })
          .from(mintOrders)
          .where(inArray(mintOrders.id, ids))
        return rows.length === ids.length && rows.every((r) => r.status === 'confirmed')
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `${count} confirmed orders (log: ${worker.logFile})` },
    )
  }

  it('parses strictly, and every counter only grows across a SIGTERM restart and a SIGKILL', async () => {
    const env = workerEnv({ databaseUrl: t.url, chain })
    const empty = await scrape()
    expect(empty.get('mintdesk_orders_total')?.type).toBe('counter')
    expect(empty.get('mintdesk_job_run_duration_seconds')?.type).toBe('histogram')

    const first = startWorkerProcess({ name: 'metrics-1', env })
    workers.push(first)
    await first.waitForLine((l) => l.msg === 'worker started')
    await mintAndWait(first, 3)
    const during = await scrape()
    expectNothingDecreased(empty, during, 'first worker running')
    expect(value(during, 'mintdesk_orders_total', { outcome: 'confirmed' })).toBe(3)
    expect(value(during, 'mintdesk_transactions_sent_total', { kind: 'mint' })).toBeGreaterThanOrEqual(3)
    expect(
      value(during, 'mintdesk_job_attempts_total', { task: 'mint_send', outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(1)
    expect(value(during, 'mintdesk_broadcast_to_confirmed_seconds_count')).toBe(3)
    expect(value(during, 'mintdesk_request_to_broadcast_seconds_count')).toBe(3)

    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    const afterStop = await scrape()
    expectNothingDecreased(during, afterStop, 'after a graceful stop')
    // the worker's own series (KMS) were flushed on stop: the Signs of 3 mints, each counted
    expect(
      value(afterStop, 'mintdesk_kms_requests_total', { operation: 'Sign', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(3)
    expect(value(afterStop, 'mintdesk_kms_sign_duration_seconds_count')).toBeGreaterThanOrEqual(3)

    const second = startWorkerProcess({ name: 'metrics-2', env })
    workers.push(second)
    await second.waitForLine((l) => l.msg === 'worker started')
    await mintAndWait(second, 2)
    const restarted = await scrape()
    expectNothingDecreased(afterStop, restarted, 'after the restart')
    expect(value(restarted, 'mintdesk_orders_total', { outcome: 'confirmed' })).toBe(5)
    expect(value(restarted, 'mintdesk_broadcast_to_confirmed_seconds_count')).toBe(5)

    await second.stop('SIGKILL')
    const killed = await scrape()
    expectNothingDecreased(restarted, killed, 'after a SIGKILL')
  }, 240_000)
})
