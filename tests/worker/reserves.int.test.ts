import { desc, eq, inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mintOrders } from '@/db/schema/mint'
import { reserveChecks } from '@/db/schema/reserves'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import type { ApiReserveLookup, ApiReserves } from '@/lib/web/reserves/apiTypes'
import { RESERVES_LIMITS } from '@/lib/web/reserves/limits'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { approveWithDevKeys } from '@/tests/helpers/approvals'
import { importTestBarList, stockBars, type TestListBar } from '@/tests/helpers/barLists'
import { buildMintRequest } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'
import { RESERVE_METRICS_MESSAGE } from '@/worker/reserves/reserveMetrics'

// Proof of reserve end to end (docs/architecture.md invariant 4), on a real anvil
// and Postgres: mints confirmed by a real worker process, the public routes called
// through their real handlers (only the session module is replaced: next-auth does not
// load under plain Node, and these routes never ask for a session).
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('@/tests/attack/fakeSession')).fakeSessionModule)

const VAULT = 'LDN-1'
const METRICS_TOKEN = 'reserves-test-metrics-token-0123456789abcdef'
const ALICE = privateKeyToAddress(generatePrivateKey())
const BOB = privateKeyToAddress(generatePrivateKey())
/** every bar of the test: Valcambi SA, 401.125 oz at 999.9 -> 401.084 oz fine */
const BARS: TestListBar[] = ['RSV-001', 'RSV-002', 'RSV-003', 'RSV-004'].map((serial) => ({ serial }))
const FINE = '401.084'

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>

describe('proof of reserve: the figures, the lookup and the reconciliation after real mints', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let u: TestUsers
  let worker: WorkerProcess | undefined
  let closeWebDb: () => Promise<void> = async () => {}
  const routes: Record<string, Handler> = {}
  const orders: { id: string; to: string; serials: string[] }[] = []

  async function get<T>(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; text: string }> {
    const handler = routes[path.split('?')[0] ?? '']
    if (!handler) throw new Error(`no route for ${path}`)
    const res = await handler(new Request(`http://localhost:3000${path}`, { headers }), { params: Promise.resolve({}) })
    const text = await res.text()
    return {
      status: res.status,
      body: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T,
      text,
    }
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
    u = await insertTestUsers(t.db)
    // the web's configuration: this database and chain (read-only), a metrics token
    Object.assign(process.env, {
      DATABASE_URL: t.url,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      TOKEN_ADDRESS: chain.tokenAddress,
      METRICS_TOKEN,
      RPC_POLLING_MS: '100',
    })
    const { getWebDb } = await import('@/lib/web/webProcess')
    closeWebDb = () => getWebDb().close()
    routes['/api/reserves'] = (await import('@/app/api/reserves/route')).GET as Handler
    routes['/api/reserves/lookup'] = (await import('@/app/api/reserves/lookup/route')).GET as Handler
    routes['/api/metrics'] = (await import('@/app/api/metrics/route')).GET as Handler

    await stockBars(t.db, { vault: VAULT, bars: BARS })
    await allowRecipients(t.db, [ALICE, BOB])
    // two mints to Alice (one bar, then two), one to Bob (one bar)
    for (const [to, serials] of [
      [ALICE, ['RSV-001']],
      [ALICE, ['RSV-002', 'RSV-003']],
      [BOB, ['RSV-004']],
    ] as const) {
      const accepted = await createMintOrder(t.db, {
        session: intakeSession(u.staff),
        maxAttempts: 5,
        request: buildMintRequest({
          to,
          vault: VAULT,
          receiptRef: `VR-${serials[0]}`,
          bars: serials.map((serial) => ({ serial })),
        }),
      })
      await approveWithDevKeys(t.db, { orderId: accepted.orderId })
      orders.push({ id: accepted.orderId, to, serials: [...serials] })
    }
    worker = startWorkerProcess({
      name: 'reserves',
      env: workerEnv({ databaseUrl: t.url, chain, env: { RESERVE_CHECK_MS: '300' } }),
    })
    await waitFor(
      async () => {
        const rows = await t.db
          .select({ status: mintOrders.status })
          .from(mintOrders)
          .where(
            inArray(
              mintOrders.id,
              orders.map((o) => o.id),
            ),
          )
        return rows.length === orders.length && rows.every((r) => r.status === 'confirmed')
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `3 confirmed orders (log: ${worker.logFile})` },
    )
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await closeWebDb()
    await chain?.stop()
    await t?.drop()
  })

  it('GET /api/reserves without a session: covered, supply = backing = the fine weight of the minted bars', async () => {
    const { status, body } = await get<ApiReserves>('/api/reserves')
    expect(status).toBe(200)
    expect(body).toMatchObject({
      source: 'chain',
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
      totalSupply: '1604.336',
      backingFineOz: '1604.336',
      inFlightFineOz: '0.000',
      availableFineOz: '0.000',
      missingFineOz: '0.000',
      shortfallOz: '0.000',
      status: 'covered',
      barLists: [{ vault: VAULT, asOf: expect.any(String) }],
    })
    expect(BigInt(body.blockNumber)).toBeGreaterThan(0n)
    expect(Date.parse(body.asOf)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('the reconciliation records covered checks while the supply is backed', async () => {
    const row = await waitFor(
      async () => {
        const [latest] = await t.db
          .select()
          .from(reserveChecks)
          .orderBy(desc(reserveChecks.at), desc(reserveChecks.id))
          .limit(1)
        // a check taken while the mints were in flight counts them there: wait for one after the confirmations
        return latest && latest.backingMilliOz === 1_604_336n ? latest : undefined
      },
      { timeoutMs: 20_000, what: 'a reserve check after the confirmations' },
    )
    expect(row).toMatchObject({
      status: 'covered',
      totalSupplyWei: (1_604_336n * 10n ** 15n).toString(),
      shortfallWei: '0',
      inFlightMilliOz: 0n,
      missingMilliOz: 0n,
    })
    // every check, in flight or confirmed, found the supply covered
    const checks = await t.db.select({ status: reserveChecks.status }).from(reserveChecks)
    expect(checks.every((c) => c.status === 'covered')).toBe(true)
  })

  it('the lookup lists the bars of each confirmed mint, by address, by transaction and by bar serial', async () => {
    const byAddress = await get<ApiReserveLookup>(`/api/reserves/lookup?address=${ALICE.toLowerCase()}`)
    expect(byAddress.status, byAddress.text).toBe(200)
    expect(byAddress.body.truncated).toBe(false)
    expect(byAddress.body.mints.map((m) => m.bars.map((b) => b.serial)).sort()).toEqual([
      ['RSV-001'],
      ['RSV-002', 'RSV-003'],
    ])
    for (const m of byAddress.body.mints) {
      expect(m.to).toBe(ALICE)
      expect(m.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      for (const b of m.bars)
        expect(b).toEqual({
          serial: b.serial,
          refiner: 'Valcambi SA',
          vault: VAULT,
          fineOz: FINE,
          status: 'backing',
          redeemed: null,
        })
    }
    expect(byAddress.body.mints.find((m) => m.bars.length === 2)?.amount).toBe('802.168')

    const [bobOrder] = await t.db.select().from(mintOrders).where(eq(mintOrders.toAddress, BOB))
    const txHash = bobOrder?.txHash ?? ''
    const byTx = await get<ApiReserveLookup>(`/api/reserves/lookup?tx=${txHash.toUpperCase().replace('0X', '0x')}`)
    expect(byTx.status, byTx.text).toBe(200)
    expect(byTx.body).toMatchObject({ query: { tx: txHash }, truncated: false })
    expect(byTx.body.mints).toHaveLength(1)
    expect(byTx.body.mints[0]).toMatchObject({
      orderId: bobOrder?.id,
      to: BOB,
      amount: FINE,
      txHash,
      bars: [{ serial: 'RSV-004', fineOz: FINE, vault: VAULT }],
    })

    // by a bar's serial, spelled as a reader might (no case, spaces for dashes): the bar, and the mint it backs
    const bySerial = await get<ApiReserveLookup>(`/api/reserves/lookup?serial=${encodeURIComponent('rsv 004')}`)
    expect(bySerial.status, bySerial.text).toBe(200)
    expect(bySerial.body).toMatchObject({ query: { serial: 'rsv 004' }, truncated: false })
    expect(bySerial.body.bars).toEqual([
      { serial: 'RSV-004', refiner: 'Valcambi SA', vault: VAULT, fineOz: FINE, status: 'backing' },
    ])
    expect(bySerial.body.mints.map((m) => m.orderId)).toEqual([bobOrder?.id])
    const noBar = await get<ApiReserveLookup>('/api/reserves/lookup?serial=RSV-999')
    expect([noBar.body.bars, noBar.body.mints]).toEqual([[], []])
    const two = await get<{ error: { code: string } }>(`/api/reserves/lookup?serial=RSV-004&address=${ALICE}`)
    expect([two.status, two.body.error.code]).toEqual([422, 'validation_failed'])
    expect(byAddress.body.bars).toBeUndefined()

    const nobody = await get<ApiReserveLookup>(`/api/reserves/lookup?address=0x${'1'.repeat(40)}`)
    expect(nobody.body.mints).toEqual([])
    const bad = await get<{ error: { code: string } }>('/api/reserves/lookup?tx=0x1234')
    expect([bad.status, bad.body.error.code]).toEqual([422, 'validation_failed'])
  })

  it('a list that drops a backing bar: shortfall = its fine weight, on the API, in the next check, in the log line and in Prometheus', async () => {
    const dropped = 'RSV-002'
    const imported = await importTestBarList(t.db, { vault: VAULT, bars: BARS.filter((b) => b.serial !== dropped) })
    expect(imported.missing).toEqual([expect.objectContaining({ serial: dropped })])
    const importedAt = new Date()

    // answers are cached for a few seconds (RESERVES_LIMITS.cacheMs): the next read after that shows the list
    const body = await waitFor(
      async () => {
        const { body } = await get<ApiReserves>('/api/reserves')
        return body.status === 'shortfall' ? body : undefined
      },
      { timeoutMs: RESERVES_LIMITS.cacheMs + 10_000, intervalMs: 500, what: 'the figures after the import' },
    )
    expect(body).toMatchObject({
      source: 'chain',
      totalSupply: '1604.336',
      backingFineOz: '1203.252',
      missingFineOz: FINE,
      shortfallOz: FINE,
      status: 'shortfall',
    })

    const check = await waitFor(
      async () => {
        const [latest] = await t.db
          .select()
          .from(reserveChecks)
          .orderBy(desc(reserveChecks.at), desc(reserveChecks.id))
          .limit(1)
        return latest && latest.at > importedAt ? latest : undefined
      },
      { timeoutMs: 20_000, what: 'the next reserve check after the import' },
    )
    expect(check).toMatchObject({
      status: 'shortfall',
      shortfallWei: (401_084n * 10n ** 15n).toString(),
      missingMilliOz: 401_084n,
      backingMilliOz: 1_203_252n,
    })

    // the worker's log: the metric line the CloudWatch alarm reads, and an error
    const metricLine = await worker?.waitForLine(
      (l) => l.msg === RESERVE_METRICS_MESSAGE && l.status === 'shortfall',
      10_000,
    )
    expect(metricLine).toMatchObject({ shortfallOz: 401.084, shortfall: FINE, missing: FINE, signingStopped: 0 })
    const errorLine = await worker?.waitForLine(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('reserve shortfall'),
      10_000,
    )
    expect(errorLine?.level).toBe('error')

    const metrics = await get<string>('/api/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })
    expect(metrics.status).toBe(200)
    expect(metrics.text.split('\n')).toContain(`mintdesk_reserve_shortfall_oz ${FINE}`)
    expect(metrics.text).toMatch(/^mintdesk_reserve_check_age_seconds \d+(\.\d+)?$/m)

    // the lookup shows the bar as off the list (once its cached answer has expired)
    const bars = await waitFor(
      async () => {
        const lookup = await get<ApiReserveLookup>(`/api/reserves/lookup?address=${ALICE}`)
        const bars = lookup.body.mints.flatMap((m) => m.bars)
        return bars.find((b) => b.serial === dropped)?.status === 'missing' ? bars : undefined
      },
      { timeoutMs: RESERVES_LIMITS.cacheMs + 10_000, intervalMs: 500, what: 'the lookup after the import' },
    )
    expect(bars.find((b) => b.serial === dropped)?.status).toBe('missing')
  })
})
