import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { readGoldTokenArtifact } from '@/scripts/stack/goldTokenArtifact'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { decodeMintError } from '@/worker/chain/decodeMintError'

// anvil dev accounts #1 and #2 (published test keys)
const MINTER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const HOLDER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const OTHER: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const MINTER_ROLE = keccak256(toHex('MINTER_ROLE'))
const FREEZER_ROLE = keccak256(toHex('FREEZER_ROLE'))
const BURNER_ROLE = keccak256(toHex('BURNER_ROLE'))
const PAUSER_ROLE = keccak256(toHex('PAUSER_ROLE'))
const ONE_OZ = 10n ** 18n

describe('GoldToken on anvil', () => {
  let fx: ChainFixture
  const wallet = (privateKey: Hex) =>
    createWalletClient({
      account: privateKeyToAccount(privateKey),
      chain: fx.chain,
      transport: http(fx.rpcUrl, { retryCount: 0 }),
    })
  let admin: ReturnType<typeof wallet>
  let minter: ReturnType<typeof wallet>
  let holder: ReturnType<typeof wallet>
  /** a GoldToken of its own, its admin anvil's dev account (the fixture's token has GoldMinter and no admin) */
  let tokenAddress: Address

  const send = async (hash: Promise<Hex>) => {
    const receipt = await fx.publicClient.waitForTransactionReceipt({ hash: await hash })
    expect(receipt.status).toBe('success')
    return receipt
  }
  const balanceOf = (a: Address) =>
    fx.publicClient.readContract({ address: tokenAddress, abi: goldTokenAbi, functionName: 'balanceOf', args: [a] })
  /** the revert reason of a mint, from a simulation */
  const mintFails = async (from: ReturnType<typeof wallet>, args: readonly [Address, bigint, Hex]) => {
    const err = await fx.publicClient
      .simulateContract({
        account: from.account,
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'mint',
        args,
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    return decodeMintError(err)
  }

  beforeAll(async () => {
    fx = await startChainFixture()
    admin = wallet(fx.admin.privateKey)
    minter = wallet(MINTER_KEY)
    holder = wallet(HOLDER_KEY)
    const deployed = await fx.publicClient.waitForTransactionReceipt({
      hash: await admin.deployContract({
        abi: goldTokenAbi,
        bytecode: readGoldTokenArtifact().bytecode,
        args: [fx.admin.address],
      }),
    })
    if (!deployed.contractAddress) throw new Error('GoldToken was not deployed')
    tokenAddress = deployed.contractAddress
    await send(
      admin.writeContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'grantRole',
        args: [MINTER_ROLE, minter.account.address],
      }),
    )
  })
  afterAll(() => fx?.stop())

  /** the revert of a call (a simulation), decoded; undefined when it succeeds */
  const fails = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (e: unknown) => decodeMintError(e),
    )
  const simulate = (from: ReturnType<typeof wallet>) => ({
    burn: (args: readonly [Address, bigint, Hex]) =>
      fails(
        fx.publicClient.simulateContract({
          account: from.account,
          address: tokenAddress,
          abi: goldTokenAbi,
          functionName: 'burn',
          args,
        }),
      ),
    pause: () =>
      fails(
        fx.publicClient.simulateContract({
          account: from.account,
          address: tokenAddress,
          abi: goldTokenAbi,
          functionName: 'pause',
        }),
      ),
    unpause: () =>
      fails(
        fx.publicClient.simulateContract({
          account: from.account,
          address: tokenAddress,
          abi: goldTokenAbi,
          functionName: 'unpause',
        }),
      ),
    transfer: (args: readonly [Address, bigint]) =>
      fails(
        fx.publicClient.simulateContract({
          account: from.account,
          address: tokenAddress,
          abi: goldTokenAbi,
          functionName: 'transfer',
          args,
        }),
      ),
  })

  it('is "Gold Token" / GLDT with 18 decimals, admin holding admin and freezer roles', async () => {
    const c = { address: tokenAddress, abi: goldTokenAbi } as const
    expect(await fx.publicClient.readContract({ ...c, functionName: 'name' })).toBe('Gold Token')
    expect(await fx.publicClient.readContract({ ...c, functionName: 'symbol' })).toBe('GLDT')
    expect(await fx.publicClient.readContract({ ...c, functionName: 'decimals' })).toBe(18)
    expect(await fx.publicClient.readContract({ ...c, functionName: 'MINTER_ROLE' })).toBe(MINTER_ROLE)
    expect(
      await fx.publicClient.readContract({ ...c, functionName: 'hasRole', args: [zeroHash, fx.admin.address] }),
    ).toBe(true)
    expect(
      await fx.publicClient.readContract({ ...c, functionName: 'hasRole', args: [FREEZER_ROLE, fx.admin.address] }),
    ).toBe(true)
    expect(
      await fx.publicClient.readContract({ ...c, functionName: 'hasRole', args: [MINTER_ROLE, fx.admin.address] }),
    ).toBe(false)
  })

  it('mints once per order id and emits Minted', async () => {
    const orderId = orderIdToBytes32(crypto.randomUUID())
    const receipt = await send(
      minter.writeContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'mint',
        args: [holder.account.address, 5n * ONE_OZ, orderId],
      }),
    )
    const [event] = parseEventLogs({ abi: goldTokenAbi, logs: receipt.logs, eventName: 'Minted' })
    expect(event.args).toEqual({ orderId, to: holder.account.address, amount: 5n * ONE_OZ })
    expect(
      await fx.publicClient.readContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'isMinted',
        args: [orderId],
      }),
    ).toBe(true)
    expect(await balanceOf(holder.account.address)).toBe(5n * ONE_OZ)
    expect((await mintFails(minter, [holder.account.address, 1n, orderId]))?.errorName).toBe('OrderAlreadyMinted')
  })

  it('refuses bad mints with its custom errors', async () => {
    const id = () => orderIdToBytes32(crypto.randomUUID())
    expect((await mintFails(minter, ['0x0000000000000000000000000000000000000000', 1n, id()]))?.errorName).toBe(
      'ZeroAddress',
    )
    expect((await mintFails(minter, [tokenAddress, 1n, id()]))?.errorName).toBe('TokenAddress')
    expect((await mintFails(minter, [OTHER, 0n, id()]))?.errorName).toBe('ZeroAmount')
    const notMinter = await mintFails(holder, [OTHER, 1n, id()])
    expect(notMinter?.errorName).toBe('AccessControlUnauthorizedAccount')
    expect(notMinter?.reason).toBe(`${holder.account.address} does not hold MINTER_ROLE`)
  })

  it('freezes an account: it can neither receive, send nor spend, until unfrozen', async () => {
    const c = { address: tokenAddress, abi: goldTokenAbi } as const
    await send(
      minter.writeContract({
        ...c,
        functionName: 'mint',
        args: [holder.account.address, 3n * ONE_OZ, orderIdToBytes32(crypto.randomUUID())],
      }),
    )
    await send(holder.writeContract({ ...c, functionName: 'approve', args: [minter.account.address, ONE_OZ] }))

    const frozen = await send(admin.writeContract({ ...c, functionName: 'freeze', args: [holder.account.address] }))
    expect(parseEventLogs({ abi: goldTokenAbi, logs: frozen.logs, eventName: 'Frozen' })[0].args.account).toBe(
      holder.account.address,
    )
    expect(await fx.publicClient.readContract({ ...c, functionName: 'isFrozen', args: [holder.account.address] })).toBe(
      true,
    )

    const minted = await mintFails(minter, [holder.account.address, ONE_OZ, orderIdToBytes32(crypto.randomUUID())])
    expect(minted?.reason).toBe(`account ${holder.account.address} is frozen`)
    const transfer = await fx.publicClient
      .simulateContract({ ...c, account: holder.account, functionName: 'transfer', args: [OTHER, 1n] })
      .catch((e: unknown) => e)
    expect(decodeMintError(transfer)?.errorName).toBe('AccountFrozen')
    const pulled = await fx.publicClient
      .simulateContract({
        ...c,
        account: minter.account,
        functionName: 'transferFrom',
        args: [holder.account.address, OTHER, 1n],
      })
      .catch((e: unknown) => e)
    expect(decodeMintError(pulled)?.errorName).toBe('AccountFrozen')
    // and nobody can send to it
    await send(
      minter.writeContract({
        ...c,
        functionName: 'mint',
        args: [minter.account.address, ONE_OZ, orderIdToBytes32(crypto.randomUUID())],
      }),
    )
    const toFrozen = await fx.publicClient
      .simulateContract({ ...c, account: minter.account, functionName: 'transfer', args: [holder.account.address, 1n] })
      .catch((e: unknown) => e)
    expect(decodeMintError(toFrozen)?.args).toEqual([holder.account.address])

    const notFreezer = await fx.publicClient
      .simulateContract({ ...c, account: minter.account, functionName: 'unfreeze', args: [holder.account.address] })
      .catch((e: unknown) => e)
    expect(decodeMintError(notFreezer)?.reason).toBe(`${minter.account.address} does not hold FREEZER_ROLE`)

    await send(admin.writeContract({ ...c, functionName: 'unfreeze', args: [holder.account.address] }))
    await send(holder.writeContract({ ...c, functionName: 'transfer', args: [OTHER, ONE_OZ] }))
    expect(await balanceOf(OTHER)).toBe(ONE_OZ)
  })

  it('burns once per redemption id, only by BURNER_ROLE, and emits Burned', async () => {
    const c = { address: tokenAddress, abi: goldTokenAbi } as const
    await send(admin.writeContract({ ...c, functionName: 'grantRole', args: [BURNER_ROLE, minter.account.address] }))
    await send(
      minter.writeContract({
        ...c,
        functionName: 'mint',
        args: [OTHER, 4n * ONE_OZ, orderIdToBytes32(crypto.randomUUID())],
      }),
    )
    const before = await balanceOf(OTHER)
    const redemptionId = orderIdToBytes32(crypto.randomUUID())
    const receipt = await send(
      minter.writeContract({ ...c, functionName: 'burn', args: [OTHER, ONE_OZ, redemptionId] }),
    )
    const [event] = parseEventLogs({ abi: goldTokenAbi, logs: receipt.logs, eventName: 'Burned' })
    expect(event.args).toEqual({ redemptionId, from: OTHER, amount: ONE_OZ })
    expect(await balanceOf(OTHER)).toBe(before - ONE_OZ)
    expect(await fx.publicClient.readContract({ ...c, functionName: 'isBurned', args: [redemptionId] })).toBe(true)

    expect((await simulate(minter).burn([OTHER, ONE_OZ, redemptionId]))?.errorName).toBe('RedemptionAlreadyBurned')
    const fresh = () => orderIdToBytes32(crypto.randomUUID())
    expect((await simulate(minter).burn([OTHER, 0n, fresh()]))?.errorName).toBe('ZeroAmount')
    expect((await simulate(minter).burn([zeroAddress, 1n, fresh()]))?.errorName).toBe('ZeroAddress')
    expect((await simulate(minter).burn([OTHER, before, fresh()]))?.errorName).toBe('ERC20InsufficientBalance')
    // the admin holds no BURNER_ROLE: the roles are separate
    const notBurner = await simulate(admin).burn([OTHER, 1n, fresh()])
    expect(notBurner?.errorName).toBe('AccessControlUnauthorizedAccount')
    expect(notBurner?.args).toEqual([fx.admin.address, BURNER_ROLE])
  })

  it('pauses: no transfer, mint or burn while paused, only PAUSER_ROLE pauses and unpauses', async () => {
    const c = { address: tokenAddress, abi: goldTokenAbi } as const
    await send(admin.writeContract({ ...c, functionName: 'grantRole', args: [BURNER_ROLE, minter.account.address] }))
    await send(
      minter.writeContract({
        ...c,
        functionName: 'mint',
        args: [holder.account.address, 2n * ONE_OZ, orderIdToBytes32(crypto.randomUUID())],
      }),
    )
    expect((await simulate(minter).pause())?.errorName).toBe('AccessControlUnauthorizedAccount')
    await send(admin.writeContract({ ...c, functionName: 'grantRole', args: [PAUSER_ROLE, minter.account.address] }))
    const paused = await send(minter.writeContract({ ...c, functionName: 'pause' }))
    expect(parseEventLogs({ abi: goldTokenAbi, logs: paused.logs, eventName: 'Paused' })[0].args.account).toBe(
      minter.account.address,
    )
    expect(await fx.publicClient.readContract({ ...c, functionName: 'paused' })).toBe(true)

    expect((await simulate(holder).transfer([OTHER, 1n]))?.errorName).toBe('EnforcedPause')
    expect(
      (await mintFails(minter, [holder.account.address, ONE_OZ, orderIdToBytes32(crypto.randomUUID())]))?.errorName,
    ).toBe('EnforcedPause')
    expect(
      (await simulate(minter).burn([holder.account.address, ONE_OZ, orderIdToBytes32(crypto.randomUUID())]))?.errorName,
    ).toBe('EnforcedPause')
    expect((await simulate(minter).pause())?.errorName).toBe('EnforcedPause')

    await send(minter.writeContract({ ...c, functionName: 'unpause' }))
    expect((await simulate(minter).unpause())?.errorName).toBe('ExpectedPause')
    await send(holder.writeContract({ ...c, functionName: 'transfer', args: [OTHER, 1n] }))
  })
})
