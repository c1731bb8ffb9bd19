import { type Hex, parseEventLogs, zeroAddress } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { barLeaf, barLeafValues, barsProof, barsRoot, totalFineWei, vaultId } from '@/lib/chain/bars'
import { controlChangeTypedData, DEV_APPROVAL_RULE } from '@/lib/chain/typedData'
import { ozToWei } from '@/lib/money/ozToWei'
import { DEV_MNEMONIC, devKeys } from '@/scripts/stack/deployGoldMinter'
import {
  compileTestContract,
  type GoldMinterTestbed,
  LDN,
  ONE_OZ,
  refusal,
  startGoldMinterTestbed,
} from './testing/goldMinterTestbed'

// GoldMinter's reserve attestations and control changes on a real anvil, every
// transaction sent by the relayer's key, which holds no authority of its own.

const ZRH = vaultId('ZRH-1')
/** a key that is nothing yet (index 17): a new approver, admin or custodian */
const newcomer = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 17 })

describe('GoldMinter: reserve attestations', () => {
  let t: GoldMinterTestbed
  let snapshot: Hex

  beforeAll(async () => {
    t = await startGoldMinterTestbed()
  })
  afterAll(() => t?.stop())
  beforeEach(async () => {
    snapshot = await t.testClient.snapshot()
  })
  afterEach(async () => {
    await t.testClient.revert({ id: snapshot })
  })

  const attestFails = async (
    list: Awaited<ReturnType<GoldMinterTestbed['barList']>>,
    signer = devKeys.custodian,
    custodian = signer.address,
  ) => {
    const { signature } = await t.attest(list, signer)
    return refusal(
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'attestReserve',
        args: [list, custodian, signature],
      }),
    )
  }

  it("refuses a bar list from a key that is no registered custodian, or whose signature is not the custodian's", async () => {
    const list = await t.barList({ totalFineWei: 1_000n * ONE_OZ })
    for (const key of [devKeys.approver, devKeys.admin, t.relayerAccount]) {
      expect(await attestFails(list, key)).toEqual({ name: 'NotACustodian', args: [key.address] })
      // naming the registered custodian does not help a signature it did not make
      expect(await attestFails(list, key, devKeys.custodian.address)).toEqual({
        name: 'InvalidCustodianSignature',
        args: [LDN, devKeys.custodian.address],
      })
    }
    expect(await t.read.reserve()).toBe(0n)
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'vaults' })).toEqual([])
  })

  it('takes a newer list, relayed by anyone, and refuses one as old as the latest or older', async () => {
    const asOf = (await t.now()) - 100n
    const first = await t.barList({ totalFineWei: 1_000n * ONE_OZ, asOf })
    const receipt = await (await t.attest(first)).send()
    const [event] = parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'ReserveAttested' })
    expect(event.args).toEqual({ ...first, reserve: 1_000n * ONE_OZ })
    expect(await t.read.reserve()).toBe(1_000n * ONE_OZ)

    for (const stale of [asOf, asOf - 1n]) {
      expect(await attestFails(await t.barList({ totalFineWei: 5_000n * ONE_OZ, asOf: stale }))).toEqual({
        name: 'StaleAttestation',
        args: [LDN, stale, asOf],
      })
    }
    const newer = await t.barList({ totalFineWei: 1_500n * ONE_OZ, asOf: asOf + 1n })
    await (await t.attest(newer)).send()
    expect(await t.read.reserve()).toBe(1_500n * ONE_OZ)
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'vaultReserve', args: [LDN] })).toEqual({
      custodian: devKeys.custodian.address,
      asOf: asOf + 1n,
      barsRoot: newer.barsRoot,
      totalFineWei: 1_500n * ONE_OZ,
    })
    // the first list, replayed by anyone, changes nothing
    expect((await attestFails(first)).name).toBe('StaleAttestation')
  })

  it('binds a new vault to the registered custodian that attests it first, and refuses a list dated ahead', async () => {
    await (await t.controlChange({ action: 'addCustodian', account: newcomer.address })).send()
    const zurich = await t.barList({ totalFineWei: 300n * ONE_OZ, vault: ZRH })
    await (await t.attest(zurich, newcomer)).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'vaults' })).toEqual([ZRH])
    // another registered custodian cannot attest a vault bound to someone else
    expect(await attestFails(await t.barList({ totalFineWei: ONE_OZ, vault: ZRH }))).toEqual({
      name: 'NotVaultCustodian',
      args: [ZRH, newcomer.address, devKeys.custodian.address],
    })
    const future = (await t.now()) + 7_200n
    expect((await attestFails(await t.barList({ totalFineWei: ONE_OZ, asOf: future }))).name).toBe(
      'AttestationFromFuture',
    )
  })

  it("sums each vault's latest total; a vault that leaves takes its reserve along and its old lists stay stale", async () => {
    await (await t.attest(await t.barList({ totalFineWei: 1_000n * ONE_OZ }))).send()
    await (await t.controlChange({ action: 'addCustodian', account: newcomer.address })).send()
    const zurich = await t.barList({ totalFineWei: 300n * ONE_OZ, vault: ZRH })
    await (await t.attest(zurich, newcomer)).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'vaults' })).toEqual([LDN, ZRH])
    expect(await t.read.reserve()).toBe(1_300n * ONE_OZ)

    await (await t.controlChange({ action: 'setCustodian', vault: ZRH, custodian: zeroAddress })).send()
    expect(await t.read.reserve()).toBe(1_000n * ONE_OZ)
    await (await t.controlChange({ action: 'setCustodian', vault: ZRH, custodian: newcomer.address })).send()
    expect((await attestFails(zurich, newcomer)).name).toBe('StaleAttestation')
    expect(await t.read.reserve()).toBe(1_000n * ONE_OZ)
  })

  it("follows a custodian key rotation: the old key's lists are refused, the new key's taken", async () => {
    // each list newer than the one before (two blocks may share a second: an equal asOf is stale)
    const first = await t.barList({ totalFineWei: 10n * ONE_OZ })
    await (await t.attest(first)).send()
    // rebinding needs a registered key
    expect(
      await refusal(
        (await t.controlChange({ action: 'setCustodian', vault: LDN, custodian: newcomer.address })).simulate(),
      ),
    ).toEqual({ name: 'NotACustodian', args: [newcomer.address] })
    await (await t.controlChange({ action: 'addCustodian', account: newcomer.address })).send()
    await (await t.controlChange({ action: 'setCustodian', vault: LDN, custodian: newcomer.address })).send()
    const list = await t.barList({ totalFineWei: 42n * ONE_OZ, asOf: first.asOf + 1n })
    expect((await attestFails(list)).name).toBe('NotVaultCustodian')
    await (await t.attest(list, newcomer)).send()
    expect(await t.read.reserve()).toBe(42n * ONE_OZ)
    // a removed custodian key attests nothing more, even for the vault bound to it
    await (await t.controlChange({ action: 'removeCustodian', account: newcomer.address })).send()
    const later = await t.barList({ totalFineWei: 50n * ONE_OZ, asOf: first.asOf + 2n })
    expect((await attestFails(later, newcomer)).name).toBe('NotACustodian')
  })

  it("roots a list's bars as OpenZeppelin's MerkleProof verifies them on chain, leaf for leaf", async () => {
    const { abi, bytecode } = compileTestContract('BarsProbe')
    const deployed = await t.mined(t.relayer.deployContract({ abi, bytecode }))
    if (!deployed.contractAddress) throw new Error('no probe address')
    const probe = { address: deployed.contractAddress, abi } as const
    const bars = ['AB123456', 'AB-123457', 'cd 1', 'EF22', 'GH3'].map((serial, i) => ({
      serial,
      refiner: i % 2 ? 'PAMP SA' : 'Valcambi SA',
      fineWei: ozToWei(`40${i}.08${i}`),
    }))
    const root = barsRoot(bars)
    for (const bar of bars) {
      const [serialKey, refinerKey, fineWei] = barLeafValues(bar)
      expect(
        await t.publicClient.readContract({ ...probe, functionName: 'leaf', args: [serialKey, refinerKey, fineWei] }),
      ).toBe(barLeaf(bar))
      expect(
        await t.publicClient.readContract({
          ...probe,
          functionName: 'verify',
          args: [barsProof(bars, bar), root, serialKey, refinerKey, fineWei],
        }),
      ).toBe(true)
      expect(
        await t.publicClient.readContract({
          ...probe,
          functionName: 'verify',
          args: [barsProof(bars, bar), root, serialKey, refinerKey, fineWei + 1n],
        }),
      ).toBe(false)
    }
    // a list the custodian signs over these bars is taken as is
    const list = { vault: LDN, asOf: await t.now(), barsRoot: root, totalFineWei: totalFineWei(bars) }
    await (await t.attest(list)).send()
    expect(await t.read.reserve()).toBe(totalFineWei(bars))
  })
})

describe('GoldMinter: control changes', () => {
  let t: GoldMinterTestbed
  let snapshot: Hex

  beforeAll(async () => {
    t = await startGoldMinterTestbed()
    await (await t.attest(await t.barList({ totalFineWei: 1_000_000n * ONE_OZ }))).send()
  })
  afterAll(() => t?.stop())
  beforeEach(async () => {
    snapshot = await t.testClient.snapshot()
  })
  afterEach(async () => {
    await t.testClient.revert({ id: snapshot })
  })

  const required = (amount: bigint) =>
    t.publicClient.readContract({ ...t.minter, functionName: 'requiredApprovals', args: [amount] })

  it("refuses a change with one admin's signature, the relayer's or an approver's, or one admin's twice", async () => {
    const rule = { ...DEV_APPROVAL_RULE, approvalsBelow: 2n }
    const alone = await t.controlChange({ action: 'setApprovalRule', rule }, [devKeys.admin])
    expect(await refusal(alone.simulate())).toEqual({ name: 'NotEnoughSignatures', args: [1n, 2n] })
    const withRelayer = await t.controlChange({ action: 'setApprovalRule', rule }, [devKeys.admin, t.relayerAccount])
    expect(await refusal(withRelayer.simulate())).toEqual({ name: 'NotAnAdmin', args: [t.relayerAccount.address] })
    const relayerOnly = await t.controlChange({ action: 'addApprover', account: t.relayerAccount.address }, [
      t.relayerAccount,
    ])
    expect((await refusal(relayerOnly.simulate())).name).toBe('NotEnoughSignatures')
    const withApprover = await t.controlChange({ action: 'setApprovalRule', rule }, [devKeys.admin2, devKeys.approver])
    expect(await refusal(withApprover.simulate())).toEqual({ name: 'NotAnAdmin', args: [devKeys.approver.address] })
    const twice = await t.controlChange({ action: 'setApprovalRule', rule }, [devKeys.admin])
    expect(
      await refusal(
        t.publicClient.simulateContract({
          ...t.minter,
          account: t.relayerAccount,
          functionName: 'applyControlChange',
          args: [twice.message, [twice.signatures[0], twice.signatures[0]]],
        }),
      ),
    ).toEqual({ name: 'DuplicateSigner', args: [devKeys.admin.address] })
    expect(await required(ONE_OZ)).toBe(1n)
  })

  it('applies a change two admins signed, once: ControlChanged; its replay and an expired change revert', async () => {
    const rule = { ...DEV_APPROVAL_RULE, largeAmount: 5_000n * ONE_OZ }
    const change = await t.controlChange({ action: 'setApprovalRule', rule })
    const receipt = await change.send()
    const [event] = parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'ControlChanged' })
    expect(event.args).toEqual({
      changeId: change.message.changeId,
      action: 'setApprovalRule',
      params: change.message.params,
    })
    expect(await required(5_000n * ONE_OZ)).toBe(2n)
    expect(await required(ozToWei('4999.999'))).toBe(1n)
    expect(
      await t.publicClient.readContract({
        ...t.minter,
        functionName: 'isChangeApplied',
        args: [change.message.changeId],
      }),
    ).toBe(true)
    expect(await refusal(change.simulate())).toEqual({ name: 'ChangeAlreadyApplied', args: [change.message.changeId] })

    const later = await t.controlChange({ action: 'setApprovalRule', rule: DEV_APPROVAL_RULE })
    await t.testClient.increaseTime({ seconds: 3_601 })
    await t.testClient.mine({ blocks: 1 })
    expect((await refusal(later.simulate())).name).toBe('IntentExpired')
  })

  it("changes the approver set: a new approver's signature counts, a removed one's no longer does", async () => {
    await (await t.controlChange({ action: 'addApprover', account: newcomer.address })).send()
    const byNewcomer = await t.mintIntent()
    await t.mint(byNewcomer, await t.signed(t.mintTypedData(byNewcomer), [newcomer]))

    await (await t.controlChange({ action: 'removeApprover', account: devKeys.approver.address })).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'approvers' })).toEqual([
      newcomer.address,
      devKeys.approver2.address,
    ])
    const byRemoved = await t.mintIntent()
    expect(
      await refusal(t.simulateMint(byRemoved, await t.signed(t.mintTypedData(byRemoved), [devKeys.approver]))),
    ).toEqual({ name: 'NotAnApprover', args: [devKeys.approver.address] })
  })

  it('refuses changes that would leave a quorum unreachable, or that are malformed', async () => {
    const refused = async (change: Parameters<GoldMinterTestbed['controlChange']>[0]) =>
      refusal((await t.controlChange(change)).simulate())
    expect(await refused({ action: 'removeApprover', account: devKeys.approver.address })).toEqual({
      name: 'QuorumUnreachable',
      args: [2n, 1n],
    })
    expect(
      await refused({ action: 'setApprovalRule', rule: { ...DEV_APPROVAL_RULE, approvalsAtOrAbove: 3n } }),
    ).toEqual({
      name: 'QuorumUnreachable',
      args: [3n, 2n],
    })
    for (const rule of [
      { ...DEV_APPROVAL_RULE, approvalsBelow: 0n },
      { ...DEV_APPROVAL_RULE, complianceApprovals: 0n },
      { ...DEV_APPROVAL_RULE, approvalsBelow: 2n, approvalsAtOrAbove: 1n },
    ]) {
      expect((await refused({ action: 'setApprovalRule', rule })).name).toBe('InvalidApprovalRule')
    }
    expect(await refused({ action: 'setAdminThreshold', threshold: 1n })).toEqual({
      name: 'InvalidAdminThreshold',
      args: [1n, 2n],
    })
    expect(await refused({ action: 'setAdminThreshold', threshold: 3n })).toEqual({
      name: 'InvalidAdminThreshold',
      args: [3n, 2n],
    })
    expect(await refused({ action: 'removeAdmin', account: devKeys.admin.address })).toEqual({
      name: 'InvalidAdminThreshold',
      args: [2n, 1n],
    })
    expect(await refused({ action: 'addApprover', account: devKeys.approver.address })).toEqual({
      name: 'AlreadyApprover',
      args: [devKeys.approver.address],
    })
    expect((await refused({ action: 'addAdmin', account: zeroAddress })).name).toBe('ZeroAddress')

    const signedRaw = async (action: string, params: Hex) => {
      const message = { changeId: `0x${'ab'.repeat(32)}` as Hex, action, params, deadline: (await t.now()) + 600n }
      const signatures = await t.signed(controlChangeTypedData(t.domain, message), [devKeys.admin, devKeys.admin2])
      return refusal(
        t.publicClient.simulateContract({
          ...t.minter,
          account: t.relayerAccount,
          functionName: 'applyControlChange',
          args: [message, signatures],
        }),
      )
    }
    expect(await signedRaw('grantRole', '0x')).toEqual({ name: 'UnknownControlAction', args: ['grantRole'] })
    expect(await signedRaw('setAdminThreshold', '0x02')).toEqual({
      name: 'InvalidControlParams',
      args: ['setAdminThreshold'],
    })
    // an address word with dirty upper bits is not an address
    expect((await signedRaw('addApprover', `0x${'ff'.repeat(12)}${newcomer.address.slice(2)}`)).name).toBe(
      'InvalidControlParams',
    )
  })

  it("changes the admin set: a third admin, 2 of 3, and a removed admin's signature refused", async () => {
    await (await t.controlChange({ action: 'addAdmin', account: newcomer.address })).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'adminThreshold' })).toBe(2n)
    await (
      await t.controlChange({ action: 'removeAdmin', account: devKeys.admin.address }, [devKeys.admin2, newcomer])
    ).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'admins' })).toEqual([
      newcomer.address,
      devKeys.admin2.address,
    ])
    const byRemoved = await t.controlChange({ action: 'setApprovalRule', rule: DEV_APPROVAL_RULE })
    expect(await refusal(byRemoved.simulate())).toEqual({ name: 'NotAnAdmin', args: [devKeys.admin.address] })
  })

  it('changes the rate limit: the bucket is cut to a smaller capacity and refills at the new rate', async () => {
    await (await t.controlChange({ action: 'setRateLimit', capacity: 10n * ONE_OZ, refillPerSecond: 0n })).send()
    expect(await t.read.availableToMint()).toBe(10n * ONE_OZ)
    const over = await t.mintIntent({ amount: 11n * ONE_OZ })
    expect(await refusal(t.simulateMint(over, await t.signed(t.mintTypedData(over), [devKeys.approver])))).toEqual({
      name: 'RateLimitExceeded',
      args: [11n * ONE_OZ, 10n * ONE_OZ],
    })
    const all = await t.mintIntent({ amount: 10n * ONE_OZ })
    await t.mint(all, await t.signed(t.mintTypedData(all), [devKeys.approver]))
    await t.testClient.increaseTime({ seconds: 1_000 })
    await t.testClient.mine({ blocks: 1 })
    expect(await t.read.availableToMint()).toBe(0n)

    // the new rate counts from the change's block: 4 seconds later by the chain's clock, 4 oz
    await (await t.controlChange({ action: 'setRateLimit', capacity: 10n * ONE_OZ, refillPerSecond: ONE_OZ })).send()
    expect(await t.read.availableToMint()).toBe(0n)
    await t.mineAfter(4n)
    expect(await t.read.availableToMint()).toBe(4n * ONE_OZ)
    await t.mineAfter(100n)
    expect(await t.read.availableToMint()).toBe(10n * ONE_OZ)
  })

  it('changes the redemption address', async () => {
    await (await t.controlChange({ action: 'setRedemptionAddress', account: newcomer.address })).send()
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'redemptionAddress' })).toBe(newcomer.address)
  })
})
