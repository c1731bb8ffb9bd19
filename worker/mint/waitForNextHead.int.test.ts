import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainClient } from '@/lib/chain/createChainClient'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { waitForNextHead } from './waitForNextHead'

describe('waitForNextHead (between two passes of a confirmer)', () => {
  let chain: ChainFixture
  beforeAll(async () => {
    chain = await startChainFixture()
  })
  afterAll(() => chain?.stop())

  const client = () => createChainClient({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, pollingMs: 50 })

  it('returns once the chain shows a block past the last pass, well before its longest wait', async () => {
    const c = client()
    const head = await c.getBlockNumber({ cacheTime: 0 })
    const waiting = waitForNextHead({ chain: c }, { after: head, maxMs: 60_000, signal: new AbortController().signal })
    await chain.testClient.mine({ blocks: 1 })
    await waiting
    expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(head + 1n)
  })

  it('with no new block: returns after its longest wait, the head unchanged; and at once when the worker shuts down', async () => {
    const c = client()
    const head = await c.getBlockNumber({ cacheTime: 0 })
    await waitForNextHead({ chain: c }, { after: head, maxMs: 300, signal: new AbortController().signal })
    expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(head)
    const stop = new AbortController()
    const waiting = waitForNextHead({ chain: c }, { after: head, maxMs: 60_000, signal: stop.signal })
    stop.abort()
    await waiting
    expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(head)
  })
})
