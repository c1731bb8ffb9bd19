import { type Hex, keccak256, parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainClient } from '@/lib/chain/createChainClient'
import { startRpcFaultProxy } from '@/scripts/stack/rpcFaultProxy'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { FeeTooLowError, InsufficientFundsError, NonceConsumedError } from '@/worker/errors/chain'
import { broadcastRawTx } from './broadcastRawTx'

/** What a real node (anvil) answers to a re-send, read the way broadcastRawTx reads it. */
describe('broadcastRawTx against anvil', () => {
  let chain: ChainFixture
  const account = privateKeyToAccount(generatePrivateKey())
  const sign = (
    nonce: number,
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } = {
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('1'),
    },
  ) =>
    account.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce,
      to: account.address,
      value: 0n,
      gas: 21_000n,
      ...fees,
    })
  const send = (raw: Hex, nonce: number, siblings: Hex[] = []) =>
    broadcastRawTx(chain.publicClient, {
      raw,
      hash: keccak256(raw),
      signerAddress: account.address,
      nonce: BigInt(nonce),
      siblings,
    })

  beforeAll(async () => {
    chain = await startChainFixture()
    await chain.testClient.setBalance({ address: account.address, value: 10n ** 18n })
  })
  afterAll(async () => {
    await chain?.stop()
  })

  it('a re-send of a pending or a mined transaction is "already known"', async () => {
    await chain.testClient.setAutomine(false)
    const raw = await sign(0)
    expect(await send(raw, 0)).toBe('sent')
    expect(await send(raw, 0)).toBe('already_known') // pending: "already imported"
    // a cheaper sibling while ours holds the slot: "replacement underpriced", ours is known
    const cheaper = await sign(0, { maxFeePerGas: parseGwei('4'), maxPriorityFeePerGas: parseGwei('1') })
    expect(await send(cheaper, 0, [keccak256(raw)])).toBe('already_known')
    await chain.testClient.setAutomine(true)
    await chain.testClient.mine({ blocks: 1 })
    expect(await send(raw, 0)).toBe('already_known') // mined: "nonce too low", but the hash is known
  })

  it('"nonce too low" for a transaction the node never saw: NonceConsumedError', async () => {
    const foreign = await sign(0, { maxFeePerGas: parseGwei('9'), maxPriorityFeePerGas: parseGwei('2') })
    await expect(send(foreign, 0)).rejects.toBeInstanceOf(NonceConsumedError)
  })

  it('fee cap below the base fee: FeeTooLowError; no gas money: InsufficientFundsError', async () => {
    await expect(send(await sign(1, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }), 1)).rejects.toBeInstanceOf(
      FeeTooLowError,
    )
    const poor = privateKeyToAccount(generatePrivateKey())
    const raw = await poor.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: 0,
      to: poor.address,
      value: 0n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: 1n,
    })
    await expect(
      broadcastRawTx(chain.publicClient, { raw, hash: keccak256(raw), signerAddress: poor.address, nonce: 0n }),
    ).rejects.toBeInstanceOf(InsufficientFundsError)
  })

  it('with several endpoints the bytes go to each: a transaction the first provider drops still lands', async () => {
    const proxy = await startRpcFaultProxy({ target: chain.rpcUrl, faults: { dropSends: true } })
    try {
      const client = createChainClient({ rpcUrls: [proxy.url, chain.rpcUrl], chainId: chain.chainId, pollingMs: 50 })
      const nonce = await chain.publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' })
      const raw = await sign(nonce)
      const hash = keccak256(raw)
      const outcome = await broadcastRawTx(client, { raw, hash, signerAddress: account.address, nonce: BigInt(nonce) })
      expect(['sent', 'already_known']).toContain(outcome)
      expect(proxy.counts.droppedSends).toBe(1)
      expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
      // again, once mined: the node says "nonce too low" for a hash the chain knows (already sent), the dropper "sent"
      expect(['sent', 'already_known']).toContain(
        await broadcastRawTx(client, { raw, hash, signerAddress: account.address, nonce: BigInt(nonce) }),
      )
      expect(proxy.counts.droppedSends).toBe(2)
      // the first endpoint dead: the second alone takes the next one
      proxy.setFaults({ down: true })
      const next = await sign(nonce + 1)
      expect(
        await broadcastRawTx(client, {
          raw: next,
          hash: keccak256(next),
          signerAddress: account.address,
          nonce: BigInt(nonce + 1),
        }),
      ).toBe('sent')
      // a rejection by a node is the answer when no endpoint took it, not the dead one's network failure
      await expect(
        broadcastRawTx(client, {
          raw: await sign(nonce + 2, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
          hash: `0x${'01'.repeat(32)}`,
          signerAddress: account.address,
          nonce: BigInt(nonce + 2),
        }),
      ).rejects.toBeInstanceOf(FeeTooLowError)
    } finally {
      await proxy.stop()
    }
  })
})
