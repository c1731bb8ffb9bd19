import { asc } from 'drizzle-orm'
import { type Address, createWalletClient, type Hex, http } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainCursors, unreconciledEvents } from '@/db/schema'
import { createChainClient } from '@/lib/chain/createChainClient'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { WorkerStartError } from '@/lib/errors/jobs'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { type RpcProxy, startRpcProxy } from '@/tests/fixtures/rpcProxy'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { checkDeployBlock } from '../runtime/checkDeployBlock'
import { createLogger } from '../runtime/logger'
import { RECONCILIATION_CURSOR, reconcileChainEvents } from './reconcileChainEvents'

/**
 * The first reconciliation (no cursor) starts at the token's deployment block (TOKEN_DEPLOY_BLOCK), against anvil
 * behind a proxy that sees every eth_getLogs: a pass started at block N asks for no log below N and still lists a
 * mint outside mintdesk made after N.
 */
describe('reconcileChainEvents from the deployment block', () => {
  let t: TestDatabase
  let chain: ChainFixture
  let proxy: RpcProxy
  const logRanges: { fromBlock: bigint; toBlock: bigint }[] = []
  const log = createLogger({ level: 'silent' })
  const to = privateKeyToAddress(generatePrivateKey())

  /** a mint outside mintdesk: anvil impersonates GoldMinter, the token's minter-role holder */
  async function outsideMint(orderId: Hex): Promise<bigint> {
    const asMinter = createWalletClient({ chain: chain.chain, transport: http(chain.rpcUrl) })
    const hash = await asMinter.writeContract({
      account: chain.minterAddress,
      address: chain.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'mint',
      args: [to, 10n ** 18n, orderId],
    })
    return (await chain.publicClient.waitForTransactionReceipt({ hash })).blockNumber
  }

  /** the first block in which the token has code */
  async function tokenDeployBlock(): Promise<bigint> {
    for (let block = 0n; ; block++) {
      const code = await chain.publicClient.getCode({ address: chain.tokenAddress, blockNumber: block })
      if (code && code !== '0x') return block
    }
  }

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase({ max: 2 }), startChainFixture()])
    proxy = await startRpcProxy({
      target: chain.rpcUrl,
      onCall: ({ method, params }) => {
        const filter = params[0] as { fromBlock?: Hex; toBlock?: Hex } | undefined
        if (method === 'eth_getLogs' && filter?.fromBlock && filter.toBlock)
          logRanges.push({ fromBlock: BigInt(filter.fromBlock), toBlock: BigInt(filter.toBlock) })
      },
    })
    await chain.testClient.impersonateAccount({ address: chain.minterAddress })
    await chain.testClient.setBalance({ address: chain.minterAddress, value: 10n ** 18n })
  })
  afterAll(async () => {
    await chain?.testClient.stopImpersonatingAccount({ address: chain.minterAddress })
    await proxy?.stop()
    await chain?.stop()
    await t?.drop()
  })

  it('reads no log below the deployment block and lists the events after it', async () => {
    const before = await outsideMint(`0x${'ab'.repeat(32)}`)
    await chain.testClient.mine({ blocks: 100 })
    const deployBlock = (await chain.publicClient.getBlockNumber({ cacheTime: 0 })) + 1n
    const after = await outsideMint(`0x${'cd'.repeat(32)}`)
    expect(before).toBeLessThan(deployBlock)
    expect(after).toBeGreaterThanOrEqual(deployBlock)
    await chain.testClient.mine({ blocks: 3 })

    const ctx = {
      db: t.db,
      chain: createChainClient({ rpcUrl: proxy.url, chainId: chain.chainId, pollingMs: 50 }),
      tokenAddress: chain.tokenAddress,
      minterAddress: chain.minterAddress,
      deployBlock,
      confirmations: 1,
      log,
    }
    const done = await reconcileChainEvents(ctx, { actor: 'test' })

    expect(done.fromBlock).toBe(deployBlock)
    expect(logRanges.length).toBeGreaterThan(0)
    // one span of blocks, two contracts: a query each, none below the deployment block
    expect(logRanges).toEqual([
      { fromBlock: deployBlock, toBlock: done.toBlock },
      { fromBlock: deployBlock, toBlock: done.toBlock },
    ])
    const listed = await t.db.select().from(unreconciledEvents).orderBy(asc(unreconciledEvents.id))
    expect(listed.map((e) => [e.event, e.subjectId, e.blockNumber])).toEqual([
      ['Minted', `0x${'cd'.repeat(32)}`, after],
    ])
    const cursors = await t.db.select().from(chainCursors)
    expect(cursors.map((c) => [c.name, c.blockNumber])).toEqual([[RECONCILIATION_CURSOR, done.toBlock]])

    // the next pass goes on from the cursor, above the deployment block
    logRanges.length = 0
    await chain.testClient.mine({ blocks: 2 })
    const next = await reconcileChainEvents(ctx, { actor: 'test' })
    expect(next.fromBlock).toBe(done.toBlock + 1n)
    expect(logRanges.every((r) => r.fromBlock === done.toBlock + 1n)).toBe(true)
  })

  it('a worker refuses a deployment block after the token was deployed, not one at or before it', async () => {
    const deployed = await tokenDeployBlock()
    const tokenAddress: Address = chain.tokenAddress
    await expect(checkDeployBlock(chain.publicClient, { tokenAddress, deployBlock: deployed, log })).resolves.toBe(
      undefined,
    )
    await expect(checkDeployBlock(chain.publicClient, { tokenAddress, deployBlock: 0n, log })).resolves.toBe(undefined)
    await expect(
      checkDeployBlock(chain.publicClient, { tokenAddress, deployBlock: deployed + 1n, log }),
    ).rejects.toThrow(WorkerStartError)
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
    await expect(checkDeployBlock(chain.publicClient, { tokenAddress, deployBlock: head + 10n, log })).rejects.toThrow(
      /after the chain's head/,
    )
  })
})
