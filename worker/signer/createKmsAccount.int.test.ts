import { secp256k1 } from '@noble/curves/secp256k1.js'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  keccak256,
  parseEventLogs,
  parseTransaction,
  recoverTransactionAddress,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { barsRoot, vaultId } from '@/lib/chain/bars'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { barListTypedData, mintIntentTypedData } from '@/lib/chain/typedData'
import { devKey } from '@/lib/keys/devKeys'
import { bytes32ToOrderId, orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { decodeMintError } from '@/worker/chain/decodeMintError'
import { estimateMintGas } from '@/worker/chain/estimateMintGas'
import { createKmsAccount } from './createKmsAccount'
import { SECP256K1_HALF_N } from './normalizeS'

const RECIPIENT: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OZ = 10n ** 15n // 0.001 troy oz in wei (18 decimals)

describe('createKmsAccount against anvil and the local KMS endpoint', () => {
  let fx: ChainFixture
  let account: Awaited<ReturnType<typeof createKmsAccount>>
  /** every DER signature KMS itself returned, before our code normalised it */
  const kmsAnswers: Uint8Array[] = []

  beforeAll(async () => {
    fx = await startChainFixture({ signers: 1 })
    fx.kms.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args)
        const output = result.output as { Signature?: Uint8Array } // Sign's output; other commands have no Signature
        if (output.Signature) kmsAnswers.push(output.Signature)
        return result
      },
      { step: 'initialize', name: 'recordKmsSignatures' },
    )
    account = await createKmsAccount(fx.kms, { keyId: fx.kmsKeyIds[0], expectedAddress: fx.signerAddresses[0] })
  })
  afterAll(() => fx?.stop())

  /**
   * builds, signs (KMS) and sends raw an EIP-1559 GoldMinter.attestAndMint, as the worker relays
   * it: a fresh vault's one-bar list signed by the dev custodian, the intent by dev approver 10;
   * returns the stored bytes and receipt
   */
  const mint = async ({ orderId, amount, gas }: { orderId: string; amount: bigint; gas?: bigint }) => {
    const domain = { chainId: fx.chainId, verifyingContract: fx.minterAddress }
    const bars = [{ serial: `K${crypto.randomUUID().slice(0, 8)}`, refiner: 'PAMP SA', fineWei: amount }]
    const list = {
      vault: vaultId(`KMS-${crypto.randomUUID()}`),
      asOf: BigInt(Math.floor(Date.now() / 1000) - 60),
      barsRoot: barsRoot(bars),
      totalFineWei: amount,
    }
    const intent = {
      orderId: orderIdToBytes32(orderId),
      to: RECIPIENT,
      amount,
      barsHash: barsRoot(bars),
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
    }
    const approver = devKey('approver')
    const data = encodeFunctionData({
      abi: goldMinterAbi,
      functionName: 'attestAndMint',
      args: [
        list,
        devKey('custodian').address,
        await devKey('custodian').signTypedData(barListTypedData(domain, list)),
        intent,
        [{ signer: approver.address, signature: await approver.signTypedData(mintIntentTypedData(domain, intent)) }],
      ],
    })
    const [nonce, fees] = await Promise.all([
      fx.publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      fx.publicClient.estimateFeesPerGas(),
    ])
    // the worker's estimate, with its margin: the rate limit's write of block.timestamp costs
    // more in a later second than the estimate's pending block may have charged
    const gasLimit =
      gas ??
      (await estimateMintGas(fx.publicClient, { minterAddress: fx.minterAddress, from: account.address, data })).gas
    const signed = await account.signTransaction({
      type: 'eip1559',
      chainId: fx.chainId,
      nonce,
      to: fx.minterAddress,
      data,
      gas: gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    const hash = await fx.publicClient.request({ method: 'eth_sendRawTransaction', params: [signed] })
    const receipt = await fx.publicClient.waitForTransactionReceipt({ hash })
    return { signed, hash, receipt, data }
  }

  it('the address derived from the DER public key is the signer; it holds no role (GoldMinter holds MINTER_ROLE)', async () => {
    expect(account.address).toBe(fx.signerAddresses[0])
    expect(account.publicKey).toMatch(/^0x04[0-9a-f]{128}$/)
    const role = await fx.publicClient.readContract({
      address: fx.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'MINTER_ROLE',
    })
    expect(
      await fx.publicClient.readContract({
        address: fx.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'hasRole',
        args: [role, account.address],
      }),
    ).toBe(false)
    expect(
      await fx.publicClient.readContract({
        address: fx.tokenAddress,
        abi: goldTokenAbi,
        functionName: 'hasRole',
        args: [role, fx.minterAddress],
      }),
    ).toBe(true)
  })

  it('signs EIP-1559 mints through KMS that anvil accepts, always low-s, over high-s and low-s KMS answers', async () => {
    const stored: Hex[] = []
    let expectedBalance = 0n
    // at least 8 signatures, and on until KMS has answered both high-s and low-s
    for (let i = 0; i < 40; i++) {
      const orderId = crypto.randomUUID()
      const amount = (401_084n + BigInt(i)) * OZ
      const { signed, hash, receipt } = await mint({ orderId, amount })
      stored.push(signed)
      expectedBalance += amount

      expect(receipt.status).toBe('success')
      expect(receipt.transactionHash).toBe(hash)
      expect(keccak256(signed)).toBe(hash)
      const [minted] = parseEventLogs({ abi: goldTokenAbi, logs: receipt.logs, eventName: 'Minted' })
      expect(minted.args).toEqual({ orderId: orderIdToBytes32(orderId), to: RECIPIENT, amount })
      expect(bytes32ToOrderId(minted.args.orderId)).toBe(orderId)
      expect(
        await fx.publicClient.readContract({
          address: fx.tokenAddress,
          abi: goldTokenAbi,
          functionName: 'isMinted',
          args: [orderIdToBytes32(orderId)],
        }),
      ).toBe(true)

      const highS = kmsAnswers.filter((der) => secp256k1.Signature.fromBytes(der, 'der').hasHighS()).length
      if (i >= 7 && highS > 0 && highS < kmsAnswers.length) break
    }
    expect(stored.length).toBeGreaterThanOrEqual(8)
    const highS = kmsAnswers.filter((der) => secp256k1.Signature.fromBytes(der, 'der').hasHighS()).length
    expect(highS, 'KMS answered high-s at least once').toBeGreaterThan(0)
    expect(highS, 'KMS answered low-s at least once').toBeLessThan(kmsAnswers.length)

    for (const signed of stored) {
      const tx = parseTransaction(signed)
      expect(tx.type).toBe('eip1559')
      expect(hexToBigInt(tx.s ?? '0x0') <= SECP256K1_HALF_N, 'stored signature is low-s').toBe(true)
      expect(await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).toBe(
        account.address,
      )
    }
    const balance = await fx.publicClient.readContract({
      address: fx.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'balanceOf',
      args: [RECIPIENT],
    })
    expect(balance).toBe(expectedBalance)
  })

  it('a second mint of the same order reverts with OrderAlreadyMinted, decoded by decodeMintError', async () => {
    const orderId = crypto.randomUUID()
    const amount = 802_168n * OZ
    const first = await mint({ orderId, amount })
    expect(first.receipt.status).toBe('success')

    // before sending: the simulation fails with the custom error
    const simulated = await fx.publicClient
      .call({ account: account.address, to: fx.minterAddress, data: first.data })
      .catch((e: unknown) => e)
    expect(decodeMintError(simulated)).toEqual({
      errorName: 'OrderAlreadyMinted',
      args: [orderIdToBytes32(orderId)],
      reason: `order ${orderId} was already minted`,
    })

    // estimateGas fails the same way (what the worker hits when it builds the tx)
    const estimated = await fx.publicClient
      .estimateGas({ account: account.address, to: fx.minterAddress, data: first.data })
      .catch((e: unknown) => e)
    expect(decodeMintError(estimated)?.errorName).toBe('OrderAlreadyMinted')

    // sent anyway with a fixed gas limit: mined, reverted, and the replay explains it
    const second = await mint({ orderId, amount, gas: 200_000n })
    expect(second.receipt.status).toBe('reverted')
    const replay = await fx.publicClient
      .call({
        account: account.address,
        to: fx.minterAddress,
        data: second.data,
        blockNumber: second.receipt.blockNumber,
      })
      .catch((e: unknown) => e)
    expect(decodeMintError(replay)?.reason).toBe(`order ${orderId} was already minted`)
    const balance = await fx.publicClient.readContract({
      address: fx.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'isMinted',
      args: [orderIdToBytes32(orderId)],
    })
    expect(balance).toBe(true)
  })

  it('signs EIP-191 messages and EIP-712 typed data that verify', async () => {
    const message = 'mintdesk signer health check'
    const signature = await account.signMessage({ message })
    expect(await verifyMessage({ address: account.address, message, signature })).toBe(true)

    const typedData = {
      domain: { name: 'mintdesk', version: '1', chainId: fx.chainId, verifyingContract: fx.tokenAddress },
      types: {
        Order: [
          { name: 'id', type: 'bytes32' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Order',
      message: { id: keccak256(toHex('order')), amount: 1n },
    } as const
    const typedSignature = await account.signTypedData(typedData)
    expect(await verifyTypedData({ address: account.address, signature: typedSignature, ...typedData })).toBe(true)
  })
})
