import { describe, expect, it } from 'vitest'
import { createChainClient } from './createChainClient'

describe('createChainClient', () => {
  it("polls at the given interval, never caches, and leaves viem's retries off (transient answers are retried in its fetch)", () => {
    const client = createChainClient({ rpcUrl: 'http://127.0.0.1:1', chainId: 31337, pollingMs: 100 })
    expect(client.chain?.id).toBe(31337)
    expect(client.pollingInterval).toBe(100)
    expect(client.cacheTime).toBe(0)
    // http transport's config fields
    const transport = client.transport as unknown as { retryCount: number; timeout: number; url: string }
    expect(transport.retryCount).toBe(0)
    expect(transport.timeout).toBe(10_000)
    expect(transport.url).toBe('http://127.0.0.1:1')
  })

  it('gives up within its timeout when the node is not there (the retries stay inside it)', async () => {
    const client = createChainClient({ rpcUrl: 'http://127.0.0.1:1', chainId: 31337, pollingMs: 100, timeoutMs: 2_000 })
    const started = Date.now()
    await expect(client.getBlockNumber()).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(4_000)
  })
})
