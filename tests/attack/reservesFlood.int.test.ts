import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ApiReserveHistory, ApiReserveLookup, ApiReserves } from '@/lib/web/reserves/apiTypes'
import { RESERVES_LIMITS } from '@/lib/web/reserves/limits'
import { errorShapeProblems } from '@/tests/chaos/badInputs'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { type PgProxy, startPgProxy } from '@/tests/fixtures/pgProxy'
import { type RpcProxy, startRpcProxy } from '@/tests/fixtures/rpcProxy'
import { stockBars } from '@/tests/helpers/barLists'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'

// A flood of the public reserves routes (security review: a flood spent the RPC quota
// the worker's mints share, and summed vault_bars once per request). The real route
// handlers, the real wrapper, a real anvil and Postgres; what reaches them is counted on
// the wire: JSON-RPC calls through a proxy in front of anvil (tests/fixtures/rpcProxy.ts),
// statements through a proxy in front of Postgres (tests/fixtures/pgProxy.ts). Only the
// session module is replaced (next-auth does not load under plain Node; these routes
// never ask for a session).
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Handler = (req: Request) => Promise<Response>

/** readReserveTotals's statement (the sums over vault_bars), readLatestReserveCheck's, listBackedMints's */
const SUMS = /select sum\(b\.fine_oz\) from vault_bars b/
const LATEST_CHECK = /from reserve_checks/
const LOOKUP = /from mint_orders o\s+where lower\(o\.to_address\)/
/** readReserveHistory's statement */
const HISTORY = /from reserve_checks r\s/
const FLOOD = 500

let t: TestDatabase
let chain: ChainFixture
let rpc: RpcProxy
let pg: PgProxy
let closeWebDb: () => Promise<void> = async () => {}
const routes: { reserves?: Handler; lookup?: Handler; history?: Handler } = {}

/** a GET as it reaches the route behind the load balancer, which appends the client's address */
function get(route: Handler | undefined, path: string, clientIp: string): Promise<Response> {
  if (!route) throw new Error('routes not loaded')
  return route(new Request(`http://localhost:3000${path}`, { headers: { 'x-forwarded-for': clientIp } }))
}

/** FLOOD clients at once, each its own address */
async function flood<T>(route: Handler | undefined, path: (i: number) => string) {
  const answers = await Promise.all(
    Array.from({ length: FLOOD }, (_, i) => get(route, path(i), `10.9.${i >> 8}.${i & 255}`)),
  )
  return Promise.all(answers.map(async (res) => ({ status: res.status, body: (await res.json()) as T })))
}

const chainReads = () => ({ ...rpc.methods })

beforeAll(async () => {
  ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture({ signers: 1 })])
  rpc = await startRpcProxy({ target: chain.rpcUrl })
  pg = await startPgProxy({ target: t.url })
  await stockBars(t.db, { vault: 'FLD-1', bars: ['FLD-1', 'FLD-2', 'FLD-3'].map((serial) => ({ serial })) })
  // the web's configuration: its own database role and the chain, both through the counting proxies
  Object.assign(process.env, {
    DATABASE_URL: pg.urlFor(t.roleUrl('web')),
    RPC_URL: rpc.url,
    CHAIN_ID: String(chain.chainId),
    TOKEN_ADDRESS: chain.tokenAddress,
    RPC_POLLING_MS: '100',
  })
  const { getWebDb } = await import('@/lib/web/webProcess')
  closeWebDb = () => getWebDb().close()
  routes.reserves = (await import('@/app/api/reserves/route')).GET as Handler
  routes.lookup = (await import('@/app/api/reserves/lookup/route')).GET as Handler
  routes.history = (await import('@/app/api/reserves/history/route')).GET as Handler
}, 120_000)

afterAll(async () => {
  await closeWebDb()
  await pg?.stop()
  await rpc?.stop()
  await chain?.stop()
  await t?.drop()
})

describe('a flood of the public reserves routes', () => {
  it(`${FLOOD} concurrent GET /api/reserves: one chain read and one set of sums per interval, every client answered`, async () => {
    expect(chainReads()).toEqual({})
    const t0 = performance.now()
    const first = await flood<ApiReserves>(routes.reserves, () => '/api/reserves')
    const firstMs = performance.now() - t0
    expect(first.map((a) => a.status)).toEqual(Array(FLOOD).fill(200))
    const asOf = first[0]?.body.asOf ?? ''
    expect(first.every((a) => a.body.asOf === asOf)).toBe(true)
    expect(first[0]?.body).toMatchObject({ source: 'chain', availableFineOz: '1203.252', totalSupply: '0.000' })
    // one read: getBlockNumber and the totalSupply call, once; one sum statement, one latest check
    expect(chainReads()).toEqual({ eth_blockNumber: 1, eth_call: 1 })
    expect([pg.count(SUMS), pg.count(LATEST_CHECK)]).toEqual([1, 1])

    // within the interval: the same answer from the cache, nothing more reaches chain or database
    const second = await flood<ApiReserves>(routes.reserves, () => '/api/reserves')
    expect(second.every((a) => a.status === 200 && a.body.asOf === asOf)).toBe(true)
    expect(chainReads()).toEqual({ eth_blockNumber: 1, eth_call: 1 })
    expect([pg.count(SUMS), pg.count(LATEST_CHECK)]).toEqual([1, 1])

    // after it: one more read, shared again by the whole wave
    await new Promise((r) => setTimeout(r, RESERVES_LIMITS.cacheMs + 250))
    const third = await flood<ApiReserves>(routes.reserves, () => '/api/reserves')
    expect(third.map((a) => a.status)).toEqual(Array(FLOOD).fill(200))
    const later = third[0]?.body.asOf ?? ''
    expect(Date.parse(later)).toBeGreaterThan(Date.parse(asOf))
    expect(third.every((a) => a.body.asOf === later)).toBe(true)
    expect(chainReads()).toEqual({ eth_blockNumber: 2, eth_call: 2 })
    expect([pg.count(SUMS), pg.count(LATEST_CHECK)]).toEqual([2, 2])
    console.log(`[reserves flood] ${FLOOD} concurrent GETs on a cold cache answered in ${Math.round(firstMs)} ms`)
  }, 60_000)

  it(`${FLOOD} concurrent lookups of one address (in either letter case): one lookup statement, each caller's query echoed`, async () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const spell = (i: number) => (i % 2 === 0 ? address : address.toLowerCase())
    const before = pg.count(LOOKUP)
    const answers = await flood<ApiReserveLookup>(routes.lookup, (i) => `/api/reserves/lookup?address=${spell(i)}`)
    expect(answers.map((a) => a.status)).toEqual(Array(FLOOD).fill(200))
    answers.forEach((a, i) => {
      expect(a.body).toEqual({ query: { address: spell(i) }, mints: [], truncated: false })
    })
    expect(pg.count(LOOKUP) - before).toBe(1)
    expect(rpc.methods.eth_call).toBe(2) // a lookup never reads the chain
  }, 60_000)

  it(`${FLOOD} concurrent histories of one window: one statement over the checks, nothing from the chain`, async () => {
    const before = pg.count(HISTORY)
    const calls = rpc.methods.eth_call
    const answers = await flood<ApiReserveHistory>(routes.history, () => '/api/reserves/history?days=7')
    expect(answers.map((a) => a.status)).toEqual(Array(FLOOD).fill(200))
    expect(answers.every((a) => a.body.days === 7 && Array.isArray(a.body.points))).toBe(true)
    expect(pg.count(HISTORY) - before).toBe(1)
    expect(rpc.methods.eth_call).toBe(calls)
  }, 60_000)

  it('a client past its burst gets 429 rate_limited with Retry-After in the error shape, on both routes; another client still gets 200', async () => {
    const hammer = '203.0.113.7'
    const other = '203.0.113.8'
    const statuses: number[] = []
    for (let i = 0; i < RESERVES_LIMITS.burst; i++)
      statuses.push((await get(routes.reserves, '/api/reserves', hammer)).status)
    expect(statuses).toEqual(Array(RESERVES_LIMITS.burst).fill(200))

    const refused = await get(routes.reserves, '/api/reserves', hammer)
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(1 / RESERVES_LIMITS.perSecond))
    const text = await refused.text()
    expect(errorShapeProblems(refused.status, refused.headers.get('content-type'), text)).toEqual([])
    expect(JSON.parse(text)).toEqual({
      error: { code: 'rate_limited', message: 'Too many requests; try again later.' },
    })
    // one limit for both routes: the lookup is refused too
    const lookup = await get(routes.lookup, `/api/reserves/lookup?tx=0x${'ab'.repeat(32)}`, hammer)
    expect([lookup.status, ((await lookup.json()) as { error: { code: string } }).error.code]).toEqual([
      429,
      'rate_limited',
    ])

    // meanwhile another client is served
    const served = await get(routes.reserves, '/api/reserves', other)
    expect(served.status).toBe(200)
    expect(((await served.json()) as ApiReserves).source).toBe('chain')

    // and the hammering client again once Retry-After has passed
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 50))
    expect((await get(routes.reserves, '/api/reserves', hammer)).status).toBe(200)
  }, 60_000)
})
