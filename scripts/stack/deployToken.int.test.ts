import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Address, encodeFunctionData, keccak256, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainClient } from '@/lib/chain/createChainClient'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { startChainFixture } from '@/tests/fixtures/chain'
import { orderIdToBytes32 } from '@/worker/chain/orderIdToBytes32'
import { createKmsAccount } from '@/worker/signer/createKmsAccount'
import { ANVIL_DEV_ADDRESS, ANVIL_DEV_PRIVATE_KEY, type StartAnvilReturnType, startAnvil } from './anvil'
import { deployToken, ensureToken } from './deployToken'

const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'))
const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address

describe('deployToken / ensureToken', () => {
  let anvil: StartAnvilReturnType
  let client: ReturnType<typeof createChainClient>
  beforeAll(async () => {
    anvil = await startAnvil()
    client = createChainClient({ rpcUrl: anvil.rpcUrl, chainId: 31337, pollingMs: 50 })
  })
  afterAll(() => anvil?.stop())

  const base = () => ({ rpcUrl: anvil.rpcUrl, chainId: 31337, deployerPrivateKey: ANVIL_DEV_PRIVATE_KEY })
  const isMinter = (token: Address, who: Address) =>
    client.readContract({ address: token, abi: goldTokenAbi, functionName: 'hasRole', args: [MINTER_ROLE, who] })

  it('deploys with the deployer as admin, and grants and funds every signer', async () => {
    const signers = [randomAddress(), randomAddress()]
    const { tokenAddress } = await deployToken({ ...base(), signerAddresses: signers })
    expect(await client.readContract({ address: tokenAddress, abi: goldTokenAbi, functionName: 'symbol' })).toBe('GLDT')
    const admin = await client.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'DEFAULT_ADMIN_ROLE',
    })
    expect(
      await client.readContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'hasRole',
        args: [admin, ANVIL_DEV_ADDRESS],
      }),
    ).toBe(true)
    for (const s of signers) {
      expect(await isMinter(tokenAddress, s)).toBe(true)
      expect(await client.getBalance({ address: s })).toBe(parseEther('100'))
    }
  })

  it('reuses a known token, granting and funding only what is missing', async () => {
    const first = randomAddress()
    const { tokenAddress } = await deployToken({ ...base(), signerAddresses: [first], fundWei: parseEther('1') })
    const second = randomAddress()
    const again = await ensureToken({
      ...base(),
      tokenAddress,
      signerAddresses: [first, second],
      fundWei: parseEther('1'),
    })
    expect(again).toEqual({ tokenAddress, deployed: false })
    expect(await isMinter(tokenAddress, second)).toBe(true)
    expect(await client.getBalance({ address: second })).toBe(parseEther('1'))
    expect(await client.getBalance({ address: first })).toBe(parseEther('1'))
  })

  it('deploys anew when the known address has no code or is no GoldToken', async () => {
    const signer = randomAddress()
    const empty = await ensureToken({ ...base(), tokenAddress: randomAddress(), signerAddresses: [signer] })
    expect(empty.deployed).toBe(true)
    expect(await isMinter(empty.tokenAddress, signer)).toBe(true)
    const none = await ensureToken({ ...base(), signerAddresses: [signer] })
    expect(none.deployed).toBe(true)
    expect(none.tokenAddress).not.toBe(empty.tokenAddress)
  })
})

describe('startChainFixture with a dataDir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mintdesk-fixture-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('finds its chain, keys and token again after a restart', async () => {
    const orderId = orderIdToBytes32(crypto.randomUUID())
    const first = await startChainFixture({ dataDir })
    try {
      const account = await createKmsAccount(first.kms, { keyId: first.kmsKeyIds[0] })
      const hash = await first.publicClient.request({
        method: 'eth_sendRawTransaction',
        params: [
          await account.signTransaction({
            type: 'eip1559',
            chainId: first.chainId,
            nonce: 0,
            to: first.tokenAddress,
            gas: 200_000n,
            maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 1n,
            data: encodeFunctionData({
              abi: goldTokenAbi,
              functionName: 'mint',
              args: [ANVIL_DEV_ADDRESS, 1n, orderId],
            }),
          }),
        ],
      })
      expect((await first.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    } finally {
      await first.stop()
    }

    const second = await startChainFixture({ dataDir, signers: 2 })
    try {
      expect(second.tokenAddress).toBe(first.tokenAddress)
      expect(second.kmsKeyIds[0]).toBe(first.kmsKeyIds[0])
      expect(second.signerAddresses[0]).toBe(first.signerAddresses[0])
      expect(second.signerAddresses).toHaveLength(2)
      expect(
        await second.publicClient.readContract({
          address: second.tokenAddress,
          abi: goldTokenAbi,
          functionName: 'isMinted',
          args: [orderId],
        }),
      ).toBe(true)
      expect(
        await second.publicClient.readContract({
          address: second.tokenAddress,
          abi: goldTokenAbi,
          functionName: 'hasRole',
          args: [MINTER_ROLE, second.signerAddresses[1]],
        }),
      ).toBe(true)
    } finally {
      await second.stop()
    }
  })
})
