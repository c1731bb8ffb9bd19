import { createWalletClient, defineChain, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainClient } from '@/lib/chain/createChainClient'
import { takeFaultCounts } from '@/lib/ops/faultCounts'
import { createRng } from '@/tests/helpers/createRng'
import { ANVIL_DEV_ADDRESS, ANVIL_DEV_PRIVATE_KEY, type StartAnvilReturnType, startAnvil } from './anvil'
import { type RpcFaultProxy, rpcFaultsFromEnv, startRpcFaultProxy } from './rpcFaultProxy'

// The RPC fault proxy in front of a real anvil: 429s the chain client retries,
// and a lagging head that serves a consistent older view of the chain.
describe('rpcFaultProxy', () => {
  let anvil: StartAnvilReturnType
  let proxy: RpcFaultProxy
  const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 })
    // seeded: the requests below are sequential, so each run draws the same 429s (with
    // Math.random, seven refusals in a row, 0.3^7 per call, failed the retrying client now and then)
    proxy = await startRpcFaultProxy({ target: anvil.rpcUrl, random: createRng(18) })
  })
  afterAll(async () => {
    await proxy?.stop()
    await anvil?.stop()
  })

  const send = async () => {
    const chain = defineChain({
      id: 31337,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const wallet = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEV_PRIVATE_KEY),
      chain,
      transport: http(anvil.rpcUrl),
    })
    return wallet.sendTransaction({ to, value: parseEther('0.001') })
  }

  it('answers a share of the requests 429 with Retry-After; the chain client retries them', async () => {
    takeFaultCounts()
    proxy.setFaults({ rateLimit: 0.3, retryAfterSeconds: 0 })
    const client = createChainClient({ rpcUrl: proxy.url, chainId: 31337, pollingMs: 100 })
    for (let i = 0; i < 20; i++) expect(await client.getChainId()).toBe(31337)
    const res = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
    })
    proxy.setFaults({ rateLimit: 1, retryAfterSeconds: 2 })
    const limited = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
    })
    expect([200, 429]).toContain(res.status)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(((await limited.json()) as { error: { code: number } }).error.code).toBe(-32005)
    proxy.setFaults({})
    const counts = takeFaultCounts()
    expect(proxy.counts.rateLimited).toBeGreaterThan(0)
    expect(counts.rpc_rate_limited).toBeGreaterThan(0)
  })

  it('a lagging head: the block number, receipts, transactions and nonces of an older block', async () => {
    const client = createChainClient({ rpcUrl: proxy.url, chainId: 31337, pollingMs: 100 })
    // mined before the head is read: the lag freezes the head the node has when it begins
    await client.waitForTransactionReceipt({ hash: await send() })
    const head = await client.getBlockNumber()
    const nonce = await client.getTransactionCount({ address: ANVIL_DEV_ADDRESS })
    proxy.setFaults({ lag: { everyMs: 60_000, forMs: 60_000 } }) // lagging from now on
    expect(await client.getBlockNumber()).toBe(head) // frozen here
    const hash = await send() // mined by anvil at once, in head + 1
    expect(await client.getBlockNumber()).toBe(head)
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/)
    expect((await client.getTransaction({ hash })).blockNumber).toBeNull()
    expect(await client.getTransactionCount({ address: ANVIL_DEV_ADDRESS })).toBe(nonce)
    expect(await client.getBlock({ blockNumber: head + 1n }).catch(() => null)).toBeNull()
    proxy.setFaults({})
    expect(await client.getBlockNumber()).toBe(head + 1n)
    expect((await client.getTransactionReceipt({ hash })).blockNumber).toBe(head + 1n)
  })

  it('reads its faults from RPC_FAULT_* variables', () => {
    expect(rpcFaultsFromEnv({})).toBeUndefined()
    expect(
      rpcFaultsFromEnv({
        RPC_FAULT_RATE_LIMIT: '0.33',
        RPC_FAULT_LATENCY_MS: '300',
        RPC_FAULT_LAG_EVERY_MS: '15000',
        RPC_FAULT_LAG_FOR_MS: '5000',
      }),
    ).toEqual({
      rateLimit: 0.33,
      retryAfterSeconds: undefined,
      latencyMs: 300,
      drop: undefined,
      lag: { everyMs: 15_000, forMs: 5_000 },
    })
    expect(() => rpcFaultsFromEnv({ RPC_FAULT_DROP: 'lots' })).toThrow(/drop/)
  })
})
