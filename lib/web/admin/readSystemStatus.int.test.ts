import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainClient } from '@/lib/chain/createChainClient'
import { ANVIL_DEV_ADDRESS, type StartAnvilReturnType, startAnvil } from '@/scripts/stack/anvil'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { readSystemStatus } from './readSystemStatus'

describe('readSystemStatus', () => {
  let t: TestDatabase
  let anvil: StartAnvilReturnType
  let empty: string
  const base = {
    chainId: 31337,
    tokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    confirmations: 2,
    staleAfterMs: 30_000,
  }

  beforeAll(async () => {
    ;[t, anvil] = await Promise.all([createTestDatabase(), startAnvil()])
    await insertSigner(t.db, { address: ANVIL_DEV_ADDRESS, nextNonce: 3n })
    empty = await insertSigner(t.db, { nextNonce: 0n })
    const user = await insertUser(t.db)
    for (const nonce of [0n, 1n, 2n]) {
      const order = await insertOrder(t.db, { requestedBy: user.id })
      await reserveNonce(t.db, { signer: ANVIL_DEV_ADDRESS, nonce, orderId: order.id, signed: nonce !== 2n })
    }
    await t.db.execute(sql`update signer_nonces set state = 'mined' where nonce = 0`)
    await t.db.execute(sql`
      insert into workers (id, host, pid, started_at, last_seen_at, stopped_at) values
        ('w-alive', 'host-a', 101, now() - interval '1 hour', now() - interval '1 second', null),
        ('w-silent', 'host-b', 102, now() - interval '1 hour', now() - interval '5 minutes', null),
        ('w-stopped', 'host-c', 103, now() - interval '1 hour', now() - interval '10 minutes', now() - interval '10 minutes')`)
  }, 60_000)
  afterAll(async () => {
    await Promise.all([t.drop(), anvil.stop()])
  })

  it('puts each signer nonce in Postgres next to the chain, with in-flight count and balance', async () => {
    const chain = createChainClient({ rpcUrl: anvil.rpcUrl, chainId: 31337, pollingMs: 100 })
    const s = await readSystemStatus(t.db, { ...base, chain, rpcUrl: anvil.rpcUrl, lowBalanceWei: 10n ** 17n })
    expect(s).toMatchObject({
      chainId: 31337,
      confirmations: 2,
      rpcUrl: anvil.rpcUrl,
      chain: { available: true, error: null },
    })
    expect(s.chain.blockNumber).toBeGreaterThanOrEqual(0)
    const dev = s.signers.find((x) => x.address === ANVIL_DEV_ADDRESS)!
    expect(dev).toEqual({
      address: ANVIL_DEV_ADDRESS,
      active: true,
      nextNonce: 3,
      chainNonce: 0,
      pending: 0,
      balanceWei: (10_000n * 10n ** 18n).toString(),
      inFlight: 2,
      lowBalance: false,
      // the nonces in flight, each with what holds it: a signed one with its transaction, a reserved one without
      pendingNonces: [
        expect.objectContaining({ nonce: 1, state: 'signed', operation: 'mint', hash: expect.stringMatching(/^0x/) }),
        expect.objectContaining({ nonce: 2, state: 'reserved', operation: 'mint', hash: null }),
      ],
    })
    expect(s.signers.find((x) => x.address === empty)).toMatchObject({ balanceWei: '0', lowBalance: true, inFlight: 0 })
    // one endpoint, probed: its label, no URL unless asked (dev mode), its head and latency
    expect(s.rpcEndpoints).toEqual([
      { label: 'rpc 1', healthy: true, head: expect.any(Number), latencyMs: expect.any(Number) },
    ])
  })

  it('shows each of several endpoints: a dead one down with why, the URLs in dev mode only', async () => {
    const dead = 'http://127.0.0.1:9'
    const chain = createChainClient({ rpcUrls: [dead, anvil.rpcUrl], chainId: 31337, pollingMs: 100 })
    const s = await readSystemStatus(t.db, { ...base, chain, lowBalanceWei: 1n, showRpcUrls: true })
    expect(s.chain.available).toBe(true) // read through rpc 2
    expect(s.rpcEndpoints).toEqual([
      { label: 'rpc 1', url: dead, healthy: false, head: null, latencyMs: null, lastError: expect.any(String) },
      { label: 'rpc 2', url: anvil.rpcUrl, healthy: true, head: expect.any(Number), latencyMs: expect.any(Number) },
    ])
    const prod = await readSystemStatus(t.db, { ...base, chain, lowBalanceWei: 1n })
    expect(prod.rpcEndpoints.map((e) => [e.label, e.url])).toEqual([
      ['rpc 1', undefined],
      ['rpc 2', undefined],
    ])
    expect(JSON.stringify(prod.rpcEndpoints)).not.toContain('127.0.0.1')
  })

  it('shows running workers with their heartbeat; a silent one is not alive; a stopped one is gone', async () => {
    const s = await readSystemStatus(t.db, { ...base, chain: null, lowBalanceWei: 1n })
    expect(s.workers.map((w) => [w.id, w.alive])).toEqual([
      ['w-alive', true],
      ['w-silent', false],
    ])
    expect(s.workers[0]).toMatchObject({ host: 'host-a', pid: 101 })
  })

  it('counts the open orders the fee ceiling holds back (issue 13)', async () => {
    expect((await readSystemStatus(t.db, { ...base, chain: null, lowBalanceWei: 1n })).feeCappedOrders).toBe(0)
    const user = await insertUser(t.db)
    const held = await insertOrder(t.db, { requestedBy: user.id })
    await t.db.execute(
      sql`insert into job_events (event, task, order_id) values ('fee_capped', 'mint_send', ${held.id}::uuid)`,
    )
    expect((await readSystemStatus(t.db, { ...base, chain: null, lowBalanceWei: 1n })).feeCappedOrders).toBe(1)
  })

  it('answers with the database figures when the RPC is down', async () => {
    const chain = createChainClient({ rpcUrl: 'http://127.0.0.1:9', chainId: 31337, pollingMs: 100, timeoutMs: 1_000 })
    const s = await readSystemStatus(t.db, { ...base, chain, lowBalanceWei: 1n, chainTimeoutMs: 2_000 })
    expect(s.chain.available).toBe(false)
    expect(s.chain.error).toMatch(/could not be read|did not answer/)
    expect(s).not.toHaveProperty('rpcUrl')
    expect(s.rpcEndpoints).toMatchObject([{ label: 'rpc 1', healthy: false, head: null }])
    const dev = s.signers.find((x) => x.address === ANVIL_DEV_ADDRESS)!
    expect(dev).toMatchObject({
      nextNonce: 3,
      inFlight: 2,
      chainNonce: null,
      pending: null,
      balanceWei: null,
      lowBalance: null,
    })
  })
})
