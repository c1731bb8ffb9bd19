import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Address, encodeFunctionData, type Hex, keccak256, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { barsHash, totalFineWei, vaultId } from '@/lib/chain/bars'
import { createChainClient } from '@/lib/chain/createChainClient'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { barListTypedData, type MintIntent, mintIntentTypedData } from '@/lib/chain/typedData'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createKmsAccount } from '@/worker/signer/createKmsAccount'
import { ANVIL_DEV_ADDRESS, ANVIL_DEV_PRIVATE_KEY, type StartAnvilReturnType, startAnvil } from './anvil'
import { devKeys } from './deployGoldMinter'
import { deployToken, ensureToken } from './deployToken'

const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'))
const DEFAULT_ADMIN_ROLE: Hex = `0x${'0'.repeat(64)}`
/** the roles GoldMinter takes on the token; the admin role is renounced, so no one holds it */
const MINTER_ROLES = ['MINTER_ROLE', 'BURNER_ROLE', 'FREEZER_ROLE', 'PAUSER_ROLE'].map((r) => keccak256(toHex(r)))
const ONE_OZ = 10n ** 18n
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
  const hasRole = (token: Address, role: Hex, who: Address) =>
    client.readContract({ address: token, abi: goldTokenAbi, functionName: 'hasRole', args: [role, who] })
  /** GoldMinter holds the token's roles (no one its admin role); the deployer and the signers hold none */
  const expectRoles = async (d: { tokenAddress: Address; minterAddress: Address }, signers: readonly Address[]) => {
    for (const role of MINTER_ROLES) expect(await hasRole(d.tokenAddress, role, d.minterAddress)).toBe(true)
    expect(await hasRole(d.tokenAddress, DEFAULT_ADMIN_ROLE, d.minterAddress)).toBe(false)
    expect(await client.readContract({ address: d.minterAddress, abi: goldMinterAbi, functionName: 'token' })).toBe(
      d.tokenAddress,
    )
    for (const who of [ANVIL_DEV_ADDRESS, ...signers]) {
      for (const role of [DEFAULT_ADMIN_ROLE, ...MINTER_ROLES])
        expect(await hasRole(d.tokenAddress, role, who)).toBe(false)
    }
  }

  it('deploys GoldToken with GoldMinter holding its roles, and funds every signer, which holds none', async () => {
    const signers = [randomAddress(), randomAddress()]
    const deployed = await deployToken({ ...base(), signerAddresses: signers })
    expect(
      await client.readContract({ address: deployed.tokenAddress, abi: goldTokenAbi, functionName: 'symbol' }),
    ).toBe('GLDT')
    await expectRoles(deployed, signers)
    for (const s of signers) expect(await client.getBalance({ address: s })).toBe(parseEther('100'))
  })

  it('reuses a known token and minter, funding only what is missing', async () => {
    const first = randomAddress()
    const deployed = await deployToken({ ...base(), signerAddresses: [first], fundWei: parseEther('1') })
    const second = randomAddress()
    const again = await ensureToken({
      ...base(),
      ...deployed,
      signerAddresses: [first, second],
      fundWei: parseEther('1'),
    })
    expect(again).toEqual({ ...deployed, deployed: false })
    await expectRoles(deployed, [first, second])
    expect(await client.getBalance({ address: second })).toBe(parseEther('1'))
    expect(await client.getBalance({ address: first })).toBe(parseEther('1'))
  })

  it('deploys anew when a known address has no code, or the minter is no GoldMinter of the token', async () => {
    const signer = randomAddress()
    const known = await deployToken({ ...base(), signerAddresses: [signer] })
    const other = await deployToken({ ...base(), signerAddresses: [signer] })
    const cases = [
      { tokenAddress: randomAddress(), minterAddress: known.minterAddress },
      { tokenAddress: known.tokenAddress, minterAddress: randomAddress() },
      { tokenAddress: known.tokenAddress, minterAddress: known.tokenAddress },
      { tokenAddress: known.tokenAddress, minterAddress: other.minterAddress },
      { tokenAddress: known.tokenAddress, minterAddress: undefined },
      { tokenAddress: undefined, minterAddress: undefined },
    ]
    const seen = new Set<Address>([known.tokenAddress, other.tokenAddress])
    for (const c of cases) {
      const result = await ensureToken({ ...base(), ...c, signerAddresses: [signer] })
      expect(result.deployed).toBe(true)
      expect(seen.has(result.tokenAddress)).toBe(false)
      seen.add(result.tokenAddress)
      await expectRoles(result, [signer])
    }
  })
})

/**
 * A 1 oz mint relayed by the fixture's first KMS signer: attestAndMint with a list of a
 * new vault signed by the dev custodian and the intent signed by dev approver 10.
 */
async function relayMint(chain: ChainFixture, orderId: Hex) {
  const domain = { chainId: chain.chainId, verifyingContract: chain.minterAddress }
  const now = (await chain.publicClient.getBlock()).timestamp
  const bars = [{ serial: `R${Date.now()}`, refiner: 'PAMP SA', fineWei: 10n * ONE_OZ }]
  const list = {
    vault: vaultId(`RESTART-${orderId}`),
    asOf: now,
    barsRoot: barsHash(bars),
    totalFineWei: totalFineWei(bars),
  }
  const intent: MintIntent = {
    orderId,
    to: ANVIL_DEV_ADDRESS,
    amount: ONE_OZ,
    barsHash: barsHash([{ ...bars[0], fineWei: ONE_OZ }]),
    deadline: now + 3600n,
  }
  const account = await createKmsAccount(chain.kms, { keyId: chain.kmsKeyIds[0] })
  const data = encodeFunctionData({
    abi: goldMinterAbi,
    functionName: 'attestAndMint',
    args: [
      list,
      devKeys.custodian.address,
      await devKeys.custodian.signTypedData(barListTypedData(domain, list)),
      intent,
      [
        {
          signer: devKeys.approver.address,
          signature: await devKeys.approver.signTypedData(mintIntentTypedData(domain, intent)),
        },
      ],
    ],
  })
  const hash = await chain.publicClient.request({
    method: 'eth_sendRawTransaction',
    params: [
      await account.signTransaction({
        type: 'eip1559',
        chainId: chain.chainId,
        nonce: await chain.publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
        to: chain.minterAddress,
        gas: 1_000_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
        data,
      }),
    ],
  })
  return chain.publicClient.waitForTransactionReceipt({ hash })
}

describe('startChainFixture with a dataDir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mintdesk-fixture-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('finds its chain, keys, token and minter again after a restart', async () => {
    const orderId = orderIdToBytes32(crypto.randomUUID())
    const first = await startChainFixture({ dataDir })
    try {
      expect((await relayMint(first, orderId)).status).toBe('success')
    } finally {
      await first.stop()
    }

    const second = await startChainFixture({ dataDir, signers: 2 })
    try {
      expect(second.tokenAddress).toBe(first.tokenAddress)
      expect(second.minterAddress).toBe(first.minterAddress)
      expect(second.kmsKeyIds[0]).toBe(first.kmsKeyIds[0])
      expect(second.signerAddresses[0]).toBe(first.signerAddresses[0])
      expect(second.signerAddresses).toHaveLength(2)
      const token = { address: second.tokenAddress, abi: goldTokenAbi } as const
      const isMinter = (who: Address) =>
        second.publicClient.readContract({ ...token, functionName: 'hasRole', args: [MINTER_ROLE, who] })
      expect(await second.publicClient.readContract({ ...token, functionName: 'isMinted', args: [orderId] })).toBe(true)
      expect(await isMinter(second.minterAddress)).toBe(true)
      for (const signer of second.signerAddresses) {
        expect(await isMinter(signer)).toBe(false)
        expect(await second.publicClient.getBalance({ address: signer })).toBeGreaterThan(parseEther('50'))
      }
    } finally {
      await second.stop()
    }
  })
})
