import { randomBytes } from 'node:crypto'
import {
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  getAddress,
  type Hex,
  hashTypedData,
  numberToHex,
  parseEventLogs,
  parseSignature,
  zeroAddress,
  zeroHash,
} from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { barsHash } from '@/lib/chain/bars'
import {
  barListTypedData,
  controlChangeTypedData,
  DEV_APPROVAL_RULE,
  encodeControlChange,
  freezeIntentTypedData,
  GOLD_MINTER_DOMAIN_NAME,
  GOLD_MINTER_DOMAIN_VERSION,
  mintIntentTypedData,
  pauseIntentTypedData,
  redemptionIntentTypedData,
} from '@/lib/chain/typedData'
import { ozToWei } from '@/lib/money/ozToWei'
import { devKeys } from '@/scripts/stack/deployGoldMinter'
import {
  compileTestContract,
  type GoldMinterTestbed,
  LDN,
  ONE_OZ,
  randomId,
  refusal,
  startGoldMinterTestbed,
} from './testing/goldMinterTestbed'

// GoldMinter (contracts/GoldMinter.sol) on a real anvil, played as an attacker holding only
// the relayer's key: every transaction is sent by the relayer, which holds no authority.

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const RESERVE = 1_000_000n * ONE_OZ

describe('GoldMinter: mints', () => {
  let t: GoldMinterTestbed
  let snapshot: Hex

  beforeAll(async () => {
    t = await startGoldMinterTestbed()
    await (await t.attest(await t.barList({ totalFineWei: RESERVE }))).send()
  })
  afterAll(() => t?.stop())
  beforeEach(async () => {
    snapshot = await t.testClient.snapshot()
  })
  afterEach(async () => {
    await t.testClient.revert({ id: snapshot })
  })

  it('holds every token role alone after its deployment: no deployer, relayer, admin or approver key holds one', async () => {
    const roles = await Promise.all(
      (['DEFAULT_ADMIN_ROLE', 'MINTER_ROLE', 'BURNER_ROLE', 'FREEZER_ROLE', 'PAUSER_ROLE'] as const).map(
        (functionName) => t.publicClient.readContract({ ...t.token, functionName }),
      ),
    )
    const keys = [t.deployer.account.address, t.relayerAccount.address, ...Object.values(devKeys).map((k) => k.address)]
    for (const [i, role] of roles.entries()) {
      const holds = (a: Hex) => t.publicClient.readContract({ ...t.token, functionName: 'hasRole', args: [role, a] })
      // the admin role is renounced by GoldMinter too: the token's roles are final
      expect(await holds(t.minterAddress)).toBe(i > 0)
      for (const key of keys) expect(await holds(key)).toBe(false)
    }
    const direct = await refusal(
      t.publicClient.simulateContract({
        ...t.token,
        account: t.relayerAccount,
        functionName: 'mint',
        args: [t.holderAccount.address, ONE_OZ, randomId()],
      }),
    )
    expect(direct.name).toBe('AccessControlUnauthorizedAccount')

    const read = <F extends 'approvers' | 'admins' | 'adminThreshold' | 'approvalRule' | 'redemptionAddress'>(
      functionName: F,
    ) => t.publicClient.readContract({ ...t.minter, functionName })
    expect(await read('approvers')).toEqual([devKeys.approver.address, devKeys.approver2.address])
    expect(await read('admins')).toEqual([devKeys.admin.address, devKeys.admin2.address])
    expect(await read('adminThreshold')).toBe(2n)
    expect(await read('approvalRule')).toEqual(DEV_APPROVAL_RULE)
    expect(await read('redemptionAddress')).toBe(t.redemptionAccount.address)
    const [, name, version, chainId, verifyingContract] = await t.publicClient.readContract({
      ...t.minter,
      functionName: 'eip712Domain',
    })
    expect({ name, version, chainId, verifyingContract }).toEqual({
      name: GOLD_MINTER_DOMAIN_NAME,
      version: GOLD_MINTER_DOMAIN_VERSION,
      chainId: BigInt(t.chain.id),
      verifyingContract: t.minterAddress,
    })
  })

  it("computes the same EIP-712 digests as lib/chain/typedData.ts's definitions, for every type", async () => {
    const deadline = 1_900_000_000n
    const id = randomId()
    const h = barsHash([{ serial: 'AB123456', refiner: 'Valcambi SA', fineWei: ozToWei('401.084') }])
    const who = t.holderAccount.address
    const c = t.minter
    const change = { changeId: id, ...encodeControlChange({ action: 'addApprover', account: who }), deadline }
    const pairs: [Promise<Hex>, Hex][] = [
      [
        t.publicClient.readContract({
          ...c,
          functionName: 'hashMintIntent',
          args: [{ orderId: id, to: who, amount: 5n, barsHash: h, deadline }],
        }),
        hashTypedData(mintIntentTypedData(t.domain, { orderId: id, to: who, amount: 5n, barsHash: h, deadline })),
      ],
      [
        t.publicClient.readContract({
          ...c,
          functionName: 'hashRedemptionIntent',
          args: [{ redemptionId: id, from: who, amount: 5n, barsHash: h, deadline }],
        }),
        hashTypedData(
          redemptionIntentTypedData(t.domain, { redemptionId: id, from: who, amount: 5n, barsHash: h, deadline }),
        ),
      ],
      [
        t.publicClient.readContract({
          ...c,
          functionName: 'hashFreezeIntent',
          args: [{ operationId: id, account: who, frozen: true, deadline }],
        }),
        hashTypedData(freezeIntentTypedData(t.domain, { operationId: id, account: who, frozen: true, deadline })),
      ],
      [
        t.publicClient.readContract({
          ...c,
          functionName: 'hashPauseIntent',
          args: [{ operationId: id, paused: true, deadline }],
        }),
        hashTypedData(pauseIntentTypedData(t.domain, { operationId: id, paused: true, deadline })),
      ],
      [
        t.publicClient.readContract({
          ...c,
          functionName: 'hashBarList',
          args: [{ vault: LDN, asOf: deadline, barsRoot: h, totalFineWei: 7n }],
        }),
        hashTypedData(barListTypedData(t.domain, { vault: LDN, asOf: deadline, barsRoot: h, totalFineWei: 7n })),
      ],
      [
        t.publicClient.readContract({ ...c, functionName: 'hashControlChange', args: [change] }),
        hashTypedData(controlChangeTypedData(t.domain, change)),
      ],
    ]
    for (const [onChain, offChain] of pairs) expect(await onChain).toBe(offChain)
  })

  it('mints an approved intent relayed by the relayer: Minted with the order id, the bucket drawn down', async () => {
    const intent = await t.mintIntent({ amount: ozToWei('802.168') })
    const receipt = await t.mint(intent, await t.signed(t.mintTypedData(intent), [devKeys.approver]))
    const [minted] = parseEventLogs({ abi: t.token.abi, logs: receipt.logs, eventName: 'Minted' })
    expect(minted.args).toEqual({ orderId: intent.orderId, to: intent.to, amount: intent.amount })
    expect(await t.read.balanceOf(intent.to)).toBe(intent.amount)
    expect(await t.publicClient.readContract({ ...t.token, functionName: 'isMinted', args: [intent.orderId] })).toBe(
      true,
    )
    // drawn down by the amount, refilled for the seconds between the block before and the mint's block
    expect(await t.read.availableToMint(receipt.blockNumber)).toBe(await t.availableAfterMint(receipt, intent.amount))
  })

  it('refuses a mint with no signatures', async () => {
    const intent = await t.mintIntent()
    expect(await refusal(t.simulateMint(intent, []))).toEqual({ name: 'NotEnoughSignatures', args: [0n, 1n] })
  })

  it('refuses forged signatures: random bytes, or another key signing in an approver name', async () => {
    const intent = await t.mintIntent()
    const random = { signer: devKeys.approver.address, signature: `0x${randomBytes(65).toString('hex')}` as Hex }
    expect(await refusal(t.simulateMint(intent, [random]))).toEqual({
      name: 'InvalidSignature',
      args: [devKeys.approver.address],
    })
    const [byRelayer] = await t.signed(t.mintTypedData(intent), [t.relayerAccount])
    const posing = { signer: devKeys.approver.address, signature: byRelayer.signature }
    expect((await refusal(t.simulateMint(intent, [posing]))).name).toBe('InvalidSignature')
  })

  it("refuses a signature over another order, or over this order's id with another recipient, amount or bars", async () => {
    const signedOne = await t.mintIntent()
    const approvals = await t.signed(t.mintTypedData(signedOne), [devKeys.approver])
    const other = await t.mintIntent()
    expect((await refusal(t.simulateMint(other, approvals))).name).toBe('InvalidSignature')
    for (const tampered of [
      { ...signedOne, to: t.relayerAccount.address },
      { ...signedOne, amount: signedOne.amount + 1n },
      { ...signedOne, barsHash: zeroHash },
      { ...signedOne, deadline: signedOne.deadline + 1n },
    ]) {
      expect((await refusal(t.simulateMint(tampered, approvals))).name).toBe('InvalidSignature')
    }
    // on another chain id or another GoldMinter, the same approver's signature is another one
    const elsewhere = await t.signed(
      mintIntentTypedData({ chainId: 1, verifyingContract: t.minterAddress }, signedOne),
      [devKeys.approver],
    )
    expect((await refusal(t.simulateMint(signedOne, elsewhere))).name).toBe('InvalidSignature')
  })

  it("refuses one approver's signature twice (where two are needed), and signers out of order", async () => {
    const intent = await t.mintIntent({ amount: 10_000n * ONE_OZ })
    const [one] = await t.signed(t.mintTypedData(intent), [devKeys.approver])
    expect(await refusal(t.simulateMint(intent, [one, one]))).toEqual({
      name: 'DuplicateSigner',
      args: [devKeys.approver.address],
    })
    const both = await t.signed(t.mintTypedData(intent), [devKeys.approver, devKeys.approver2])
    expect((await refusal(t.simulateMint(intent, [both[1], both[0]]))).name).toBe('SignersNotAscending')
  })

  it("refuses a non-approver's signature: the relayer's, the custodian's, an admin's", async () => {
    const intent = await t.mintIntent()
    for (const key of [t.relayerAccount, devKeys.custodian, devKeys.admin]) {
      const approvals = await t.signed(t.mintTypedData(intent), [key])
      expect(await refusal(t.simulateMint(intent, approvals))).toEqual({ name: 'NotAnApprover', args: [key.address] })
    }
  })

  it("refuses a replay of a mined order's calldata: the call reverts, and mined it mints nothing", async () => {
    const intent = await t.mintIntent({ amount: 3n * ONE_OZ })
    const receipt = await t.mint(intent, await t.signed(t.mintTypedData(intent), [devKeys.approver]))
    const { input } = await t.publicClient.getTransaction({ hash: receipt.transactionHash })
    const replayed = await refusal(
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'mint',
        args: decodeMintCall(input),
      }),
    )
    expect(replayed).toEqual({ name: 'OrderAlreadyMinted', args: [intent.orderId] })
    const hash = await t.relayer.sendTransaction({ to: t.minterAddress, data: input, gas: 500_000n })
    expect((await t.publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted')
    expect(await t.read.balanceOf(intent.to)).toBe(3n * ONE_OZ)
  })

  it('refuses an expired intent, and one whose deadline passed while it waited', async () => {
    const expired = await t.mintIntent({ deadline: (await t.now()) - 1n })
    expect(
      (await refusal(t.simulateMint(expired, await t.signed(t.mintTypedData(expired), [devKeys.approver])))).name,
    ).toBe('IntentExpired')
    const soon = await t.mintIntent({ deadline: (await t.now()) + 60n })
    const approvals = await t.signed(t.mintTypedData(soon), [devKeys.approver])
    await t.testClient.increaseTime({ seconds: 120 })
    await t.testClient.mine({ blocks: 1 })
    expect((await refusal(t.simulateMint(soon, approvals))).name).toBe('IntentExpired')
  })

  it('refuses a mint over the rate limit; the bucket refills with time', async () => {
    const [capacity, rate] = await t.publicClient.readContract({ ...t.minter, functionName: 'rateLimit' })
    expect([capacity, rate]).toEqual([100_000n * ONE_OZ, ONE_OZ])
    const both = [devKeys.approver, devKeys.approver2]
    const big = await t.mintIntent({ amount: 95_000n * ONE_OZ })
    const bigMint = await t.mint(big, await t.signed(t.mintTypedData(big), both))
    const left = await t.read.availableToMint(bigMint.blockNumber)
    expect(left).toBe(await t.availableAfterMint(bigMint, big.amount))

    // the call runs at the latest block, the big mint's: what it left, to the wei
    const next = await t.mintIntent({ amount: 10_000n * ONE_OZ, deadline: (await t.now()) + 86_400n })
    const approvals = await t.signed(t.mintTypedData(next), both)
    expect(await t.publicClient.getBlockNumber()).toBe(bigMint.blockNumber)
    expect(await refusal(t.simulateMint(next, approvals))).toEqual({
      name: 'RateLimitExceeded',
      args: [10_000n * ONE_OZ, left],
    })

    // 5,000 seconds later by the chain's clock: 5,000 oz more
    await t.mineAfter(5_000n)
    expect(await t.read.availableToMint()).toBe(left + 5_000n * rate)
    await t.mint(next, approvals)
    // never above the capacity, however long it waits
    await t.mineAfter(10_000_000n)
    expect(await t.read.availableToMint()).toBe(capacity)
  })

  it('refuses a mint above the attested reserve: supply + amount <= reserve', async () => {
    const first = await t.mintIntent({ amount: 10n * ONE_OZ })
    await t.mint(first, await t.signed(t.mintTypedData(first), [devKeys.approver]))
    const supply = await t.read.totalSupply()
    // the custodian's newer list holds less: the supply plus 5 oz
    await (await t.attest(await t.barList({ totalFineWei: supply + 5n * ONE_OZ, asOf: (await t.now()) + 1n }))).send()
    expect(await t.read.reserve()).toBe(supply + 5n * ONE_OZ)
    expect(await t.publicClient.readContract({ ...t.minter, functionName: 'maxMintable' })).toBe(5n * ONE_OZ)

    const over = await t.mintIntent({ amount: ozToWei('5.001') })
    expect(await refusal(t.simulateMint(over, await t.signed(t.mintTypedData(over), [devKeys.approver])))).toEqual({
      name: 'ReserveExceeded',
      args: [supply, ozToWei('5.001'), supply + 5n * ONE_OZ],
    })
    const exact = await t.mintIntent({ amount: 5n * ONE_OZ })
    await t.mint(exact, await t.signed(t.mintTypedData(exact), [devKeys.approver]))
    expect(await t.read.totalSupply()).toBe(await t.read.reserve())
  })

  it('needs 1 approver for 9,999.999 oz and 2 for 10,000 oz (requiredApprovals says so)', async () => {
    const required = (oz: string) =>
      t.publicClient.readContract({ ...t.minter, functionName: 'requiredApprovals', args: [ozToWei(oz)] })
    expect(await required('9999.999')).toBe(1n)
    expect(await required('10000')).toBe(2n)

    const below = await t.mintIntent({ amount: ozToWei('9999.999') })
    await t.mint(below, await t.signed(t.mintTypedData(below), [devKeys.approver2]))

    const at = await t.mintIntent({ amount: ozToWei('10000') })
    expect(await refusal(t.simulateMint(at, await t.signed(t.mintTypedData(at), [devKeys.approver])))).toEqual({
      name: 'NotEnoughSignatures',
      args: [1n, 2n],
    })
    await t.mint(at, await t.signed(t.mintTypedData(at), [devKeys.approver, devKeys.approver2]))
    expect(await t.read.balanceOf(t.holderAccount.address)).toBe(ozToWei('19999.999'))
  })

  it("refuses a high-s signature: the approver's own, malleated, which ecrecover alone would accept", async () => {
    const intent = await t.mintIntent()
    const [{ signature }] = await t.signed(t.mintTypedData(intent), [devKeys.approver])
    const { r, s, v } = parseSignature(signature)
    const highS = SECP256K1_N - BigInt(s)
    const flippedV = v === 27n ? 28 : 27
    const malleated = concat([r, numberToHex(highS, { size: 32 }), numberToHex(flippedV, { size: 1 })])

    // the precompile recovers the approver from it: only the contract's check refuses it
    const digest = hashTypedData(t.mintTypedData(intent))
    const { data } = await t.publicClient.call({
      to: '0x0000000000000000000000000000000000000001',
      data: encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'uint8' }, { type: 'bytes32' }, { type: 'uint256' }],
        [digest, flippedV, r, highS],
      ),
    })
    expect(getAddress(`0x${(data ?? '0x').slice(-40)}`)).toBe(devKeys.approver.address)

    expect(await refusal(t.simulateMint(intent, [{ signer: devKeys.approver.address, signature: malleated }]))).toEqual(
      { name: 'InvalidSignature', args: [devKeys.approver.address] },
    )
    await t.mint(intent, [{ signer: devKeys.approver.address, signature }])
  })

  it('refuses the zero address, the token or GoldMinter itself as the recipient, and a zero amount', async () => {
    for (const [to, name] of [
      [zeroAddress, 'ZeroAddress'],
      [t.tokenAddress, 'InvalidRecipient'],
      [t.minterAddress, 'InvalidRecipient'],
    ] as const) {
      const intent = await t.mintIntent({ to })
      expect(
        (await refusal(t.simulateMint(intent, await t.signed(t.mintTypedData(intent), [devKeys.approver])))).name,
      ).toBe(name)
    }
    const zero = await t.mintIntent({ amount: 0n })
    expect((await refusal(t.simulateMint(zero, await t.signed(t.mintTypedData(zero), [devKeys.approver])))).name).toBe(
      'ZeroAmount',
    )
  })

  it('takes an ERC-1271 approver (a contract wallet, as a Safe) once the admins add it', async () => {
    const { abi, bytecode } = compileTestContract('ERC1271Wallet')
    const owner = devKeys.approver2
    const deployed = await t.mined(t.relayer.deployContract({ abi, bytecode, args: [owner.address] }))
    if (!deployed.contractAddress) throw new Error('no wallet address')
    const wallet = getAddress(deployed.contractAddress)
    await (await t.controlChange({ action: 'addApprover', account: wallet })).send()

    const intent = await t.mintIntent()
    // the wallet's owner signs the intent's digest; the wallet vouches for it
    const [{ signature }] = await t.signed(t.mintTypedData(intent), [owner])
    const [{ signature: notTheOwners }] = await t.signed(t.mintTypedData(intent), [devKeys.approver])
    expect(await refusal(t.simulateMint(intent, [{ signer: wallet, signature: notTheOwners }]))).toEqual({
      name: 'InvalidSignature',
      args: [wallet],
    })
    await t.mint(intent, [{ signer: wallet, signature }])
    expect(await t.read.balanceOf(intent.to)).toBe(intent.amount)
  })
})

/** The (intent, approvals) of a mint transaction's calldata. */
function decodeMintCall(input: Hex) {
  const [intent, approvals] = decodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          { name: 'orderId', type: 'bytes32' },
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
          { name: 'barsHash', type: 'bytes32' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      {
        type: 'tuple[]',
        components: [
          { name: 'signer', type: 'address' },
          { name: 'signature', type: 'bytes' },
        ],
      },
    ],
    `0x${input.slice(10)}`,
  )
  return [intent, approvals] as const
}
