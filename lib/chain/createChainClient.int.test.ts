import { createWalletClient, defineChain, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANVIL_DEV_PRIVATE_KEY, type StartAnvilReturnType, startAnvil } from '@/scripts/stack/anvil'
import { type RpcFaultProxy, startRpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import { createChainClient } from './createChainClient'
import { rpcEndpointsOf } from './rpcEndpointsOf'

// Two endpoints in front of one real anvil: the fault proxy as the first (rpc 1), anvil
// itself as the second (rpc 2). The proxy dies, lags or lies; the client keeps reading.
describe('createChainClient with several endpoints', () => {
  let anvil: StartAnvilReturnType
  let proxy: RpcFaultProxy
  const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 })
    proxy = await startRpcFaultProxy({ target: anvil.rpcUrl })
  })
  afterAll(async () => {
    await proxy?.stop()
    await anvil?.stop()
  })

  const client = () =>
    createChainClient({ rpcUrls: [proxy.url, anvil.rpcUrl], chainId: 31337, pollingMs: 100, healthMs: 50 })
  const send = async () => {
    const chain = defineChain({
      id: 31337,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY), chain, transport: http() })
    return wallet.sendTransaction({ to, value: parseEther('0.001') })
  }

  it('uses the first endpoint while it is healthy; the endpoints and their health are on the transport', async () => {
    proxy.setFaults({})
    const c = client()
    const before = proxy.counts.requests
    expect(await c.getChainId()).toBe(31337)
    expect(proxy.counts.requests).toBeGreaterThan(before)
    const rpc = rpcEndpointsOf(c)
    expect(rpc?.endpoints.map((e) => e.label)).toEqual(['rpc 1', 'rpc 2'])
    const probed = await rpc?.probe()
    expect(probed?.map((e) => e.health.healthy)).toEqual([true, true])
    expect(probed?.every((e) => e.health.head !== null && e.health.latencyMs !== null)).toBe(true)
  })

  it('a dead first endpoint: reads go on through the second, and the first is held down with a reason', async () => {
    const c = client()
    proxy.setFaults({ down: true })
    try {
      for (let i = 0; i < 5; i++) expect(await c.getBlockNumber()).toBeGreaterThanOrEqual(0n)
      const rpc = rpcEndpointsOf(c)
      await rpc?.probe()
      expect(rpc?.endpoints[0].health).toMatchObject({ healthy: false, head: null })
      expect(rpc?.endpoints[0].health.lastError).toMatch(/HttpRequestError/)
      expect(rpc?.endpoints[0].health.lastError).not.toContain('127.0.0.1')
      expect(rpc?.usable().map((e) => e.label)).toEqual(['rpc 2'])
      // held down: no request goes to it while rpc 2 is healthy (bar the probes)
      const seen = proxy.counts.dropped
      for (let i = 0; i < 5; i++) await c.getChainId()
      expect(proxy.counts.dropped - seen).toBeLessThanOrEqual(1)
    } finally {
      proxy.setFaults({})
    }
    // back: the next probe finds it well
    const rpc = rpcEndpointsOf(c)
    await rpc?.probe()
    expect(rpc?.endpoints[0].health.healthy).toBe(true)
  })

  it('a lagging first endpoint is demoted once its head is more than 3 blocks behind', async () => {
    const c = client()
    proxy.setFaults({ lag: { everyMs: 600_000, forMs: 600_000 } })
    try {
      await c.getBlockNumber() // freezes the proxy's head
      for (let i = 0; i < 5; i++) await c.waitForTransactionReceipt({ hash: await send() })
      const rpc = rpcEndpointsOf(c)
      await rpc?.probe()
      expect(rpc?.endpoints[0].health.healthy).toBe(false)
      expect(rpc?.endpoints[0].health.lastError).toMatch(/blocks behind the best/)
      // reads now come from rpc 2: the head it answers is the chain's
      expect(await c.getBlockNumber()).toBe(BigInt(await anvilHead(anvil.rpcUrl)))
    } finally {
      proxy.setFaults({})
    }
  })

  it('a first endpoint that stopped one block behind is demoted once it has not moved for 3 probe intervals', async () => {
    const c = client()
    proxy.setFaults({ lag: { everyMs: 600_000, forMs: 600_000 } })
    try {
      await c.getBlockNumber() // freezes the proxy's head
      const rpc = rpcEndpointsOf(c)
      expect((await rpc?.probe())?.map((e) => e.health.healthy)).toEqual([true, true])
      // one block on an automining chain: within RPC_MAX_LAG_BLOCKS, so the lag in blocks alone believes it
      await c.waitForTransactionReceipt({ hash: await send() })
      await rpc?.probe()
      const [stopped, best] = rpc?.endpoints.map((e) => e.health.head ?? 0n) ?? []
      expect((best ?? 0n) - (stopped ?? 0n)).toBe(1n)
      await new Promise((r) => setTimeout(r, 200)) // stalledAfterMs: 3 x healthMs (50 ms)
      await rpc?.probe()
      expect(rpc?.endpoints[0].health.healthy).toBe(false)
      expect(rpc?.endpoints[0].health.lastError).toMatch(/has not moved for \d+ ms while the best is at/)
      expect(await c.getBlockNumber()).toBe(BigInt(await anvilHead(anvil.rpcUrl)))
      // the node catches up: back at the next round
      proxy.setFaults({})
      await rpc?.probe()
      expect(rpc?.endpoints[0].health).toMatchObject({ healthy: true, lastError: null })
    } finally {
      proxy.setFaults({})
    }
  })

  it('a receipt or transaction answered null by the first endpoint is asked of the others before it is believed', async () => {
    const c = client()
    const hash = await send()
    proxy.setFaults({ nullReceipts: true })
    try {
      const receipt = await c.getTransactionReceipt({ hash })
      expect(receipt.transactionHash).toBe(hash)
      expect((await c.getTransaction({ hash })).hash).toBe(hash)
      // a transaction nobody knows is still unknown
      await expect(c.getTransactionReceipt({ hash: `0x${'ab'.repeat(32)}` })).rejects.toThrow(/could not be found/)
    } finally {
      proxy.setFaults({})
    }
  })
})

async function anvilHead(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
  })
  return ((await res.json()) as { result: string }).result
}
