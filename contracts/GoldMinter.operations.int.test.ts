import { randomBytes } from 'node:crypto'
import {
  type Address,
  concat,
  type Hex,
  numberToHex,
  parseEventLogs,
  parseSignature,
  type TransactionReceipt,
  type TypedDataDefinition,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { barsHash } from '@/lib/chain/bars'
import {
  type FreezeIntent,
  freezeIntentTypedData,
  type PauseIntent,
  pauseIntentTypedData,
  type RedemptionIntent,
  redemptionIntentTypedData,
  type SignerSignature,
} from '@/lib/chain/typedData'
import { DEV_MNEMONIC, devKeys } from '@/scripts/stack/deployGoldMinter'
import { type GoldMinterTestbed, ONE_OZ, randomId, refusal, startGoldMinterTestbed } from './testing/goldMinterTestbed'

// Redemption burns, freezes and pauses through GoldMinter on a real anvil: the happy
// paths, and for every kind of intent the refusals an attacker holding only the relayer's
// key would try. Every transaction is sent by the relayer.

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
/** a customer who is nothing else (index 18) */
const bystander = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 18 })

/** One signed operation of a kind: its typed data, and the relayer's ways to send it. */
type Operation = {
  typedData: TypedDataDefinition
  simulate(approvals: readonly SignerSignature[]): Promise<unknown>
  send(approvals: readonly SignerSignature[]): Promise<TransactionReceipt>
}

type Kind = {
  name: string
  /** the error a second use of the same id reverts with */
  replayed: string
  /** a new operation that the approvers' signatures would carry (an hour to go, or `deadline`) */
  fresh(deadline?: bigint): Promise<Operation>
}

describe('GoldMinter: burns, freezes and pauses', () => {
  let t: GoldMinterTestbed
  let snapshot: Hex

  beforeAll(async () => {
    t = await startGoldMinterTestbed()
    await (await t.attest(await t.barList({ totalFineWei: 1_000_000n * ONE_OZ }))).send()
    const intent = await t.mintIntent({ amount: 30_000n * ONE_OZ })
    await t.mint(intent, await t.signed(t.mintTypedData(intent), [devKeys.approver, devKeys.approver2]))
    // a holder redeems: the tokens go to the desk's redemption address
    await t.mined(
      t.holder.writeContract({
        ...t.token,
        functionName: 'transfer',
        args: [t.redemptionAccount.address, 20_000n * ONE_OZ],
      }),
    )
  })
  afterAll(() => t?.stop())
  beforeEach(async () => {
    snapshot = await t.testClient.snapshot()
  })
  afterEach(async () => {
    await t.testClient.revert({ id: snapshot })
  })

  const deadline = async () => (await t.now()) + 3600n
  const redemption = async (overrides: Partial<RedemptionIntent> = {}): Promise<RedemptionIntent> => ({
    redemptionId: randomId(),
    from: t.redemptionAccount.address,
    amount: ONE_OZ,
    barsHash: barsHash([{ serial: `R${randomBytes(6).toString('hex')}`, refiner: 'Valcambi SA', fineWei: ONE_OZ }]),
    deadline: await deadline(),
    ...overrides,
  })
  const burnOp = (intent: RedemptionIntent): Operation => ({
    typedData: redemptionIntentTypedData(t.domain, intent),
    simulate: (approvals) =>
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'burn',
        args: [intent, approvals],
      }),
    send: (approvals) =>
      t.mined(t.relayer.writeContract({ ...t.minter, functionName: 'burn', args: [intent, approvals] })),
  })
  const freezeOp = (intent: FreezeIntent): Operation => ({
    typedData: freezeIntentTypedData(t.domain, intent),
    simulate: (approvals) =>
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'setFrozen',
        args: [intent, approvals],
      }),
    send: (approvals) =>
      t.mined(t.relayer.writeContract({ ...t.minter, functionName: 'setFrozen', args: [intent, approvals] })),
  })
  const pauseOp = (intent: PauseIntent): Operation => ({
    typedData: pauseIntentTypedData(t.domain, intent),
    simulate: (approvals) =>
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'setPaused',
        args: [intent, approvals],
      }),
    send: (approvals) =>
      t.mined(t.relayer.writeContract({ ...t.minter, functionName: 'setPaused', args: [intent, approvals] })),
  })
  const approved = async (op: Operation, signers = [devKeys.approver]) => op.send(await t.signed(op.typedData, signers))
  const freeze = async (account: Address, frozen = true) =>
    approved(freezeOp({ operationId: randomId(), account, frozen, deadline: await deadline() }))
  const pause = async (paused = true) =>
    approved(pauseOp({ operationId: randomId(), paused, deadline: await deadline() }))
  const transferFails = (from: typeof t.holderAccount, to: Address) =>
    refusal(t.publicClient.simulateContract({ ...t.token, account: from, functionName: 'transfer', args: [to, 1n] }))

  const kinds: Kind[] = [
    {
      name: 'a mint',
      replayed: 'OrderAlreadyMinted',
      fresh: async (d) => {
        const intent = await t.mintIntent(d === undefined ? {} : { deadline: d })
        return {
          typedData: t.mintTypedData(intent),
          simulate: (approvals) => t.simulateMint(intent, approvals),
          send: (approvals) => t.mint(intent, approvals),
        }
      },
    },
    {
      name: 'a redemption burn',
      replayed: 'RedemptionAlreadyBurned',
      fresh: async (d) => burnOp(await redemption(d === undefined ? {} : { deadline: d })),
    },
    {
      name: 'a freeze',
      replayed: 'OperationAlreadyUsed',
      fresh: async (d) =>
        freezeOp({
          operationId: randomId(),
          account: bystander.address,
          frozen: true,
          deadline: d ?? (await deadline()),
        }),
    },
    {
      name: 'an unfreeze',
      replayed: 'OperationAlreadyUsed',
      fresh: async (d) =>
        freezeOp({
          operationId: randomId(),
          account: bystander.address,
          frozen: false,
          deadline: d ?? (await deadline()),
        }),
    },
    {
      name: 'a pause',
      replayed: 'OperationAlreadyUsed',
      fresh: async (d) => pauseOp({ operationId: randomId(), paused: true, deadline: d ?? (await deadline()) }),
    },
  ]

  describe.each(kinds)('$name, relayed with the relayer key alone', (kind) => {
    it('goes through with an approver signature', async () => {
      const op = await kind.fresh()
      const receipt = await op.send(await t.signed(op.typedData, [devKeys.approver2]))
      expect(receipt.status).toBe('success')
    })

    it('is refused with no signatures, forged ones, or a signature of another operation', async () => {
      const op = await kind.fresh()
      expect(await refusal(op.simulate([]))).toEqual({ name: 'NotEnoughSignatures', args: [0n, 1n] })
      const forged = { signer: devKeys.approver.address, signature: `0x${randomBytes(65).toString('hex')}` as Hex }
      expect(await refusal(op.simulate([forged]))).toEqual({
        name: 'InvalidSignature',
        args: [devKeys.approver.address],
      })
      const other = await kind.fresh()
      expect((await refusal(op.simulate(await t.signed(other.typedData, [devKeys.approver])))).name).toBe(
        'InvalidSignature',
      )
    })

    it("is refused with one approver's signature twice, or a non-approver's (the relayer's own)", async () => {
      const op = await kind.fresh()
      const [one] = await t.signed(op.typedData, [devKeys.approver])
      expect((await refusal(op.simulate([one, one]))).name).toBe('DuplicateSigner')
      expect(await refusal(op.simulate(await t.signed(op.typedData, [t.relayerAccount])))).toEqual({
        name: 'NotAnApprover',
        args: [t.relayerAccount.address],
      })
    })

    it('is refused as a replay of its id, and once expired', async () => {
      const op = await kind.fresh()
      const approvals = await t.signed(op.typedData, [devKeys.approver])
      await op.send(approvals)
      expect((await refusal(op.simulate(approvals))).name).toBe(kind.replayed)
      const expired = await kind.fresh((await t.now()) - 1n)
      expect((await refusal(expired.simulate(await t.signed(expired.typedData, [devKeys.approver])))).name).toBe(
        'IntentExpired',
      )
    })

    it('is refused with a high-s (malleated) signature', async () => {
      const op = await kind.fresh()
      const [{ signature }] = await t.signed(op.typedData, [devKeys.approver])
      const { r, s, v } = parseSignature(signature)
      const malleated = concat([
        r,
        numberToHex(SECP256K1_N - BigInt(s), { size: 32 }),
        numberToHex(v === 27n ? 28 : 27, { size: 1 }),
      ])
      expect(await refusal(op.simulate([{ signer: devKeys.approver.address, signature: malleated }]))).toEqual({
        name: 'InvalidSignature',
        args: [devKeys.approver.address],
      })
    })
  })

  it('burns from the redemption address, once per redemption id: Burned, the supply falls', async () => {
    const supply = await t.read.totalSupply()
    const intent = await redemption({ amount: 400n * ONE_OZ })
    const receipt = await approved(burnOp(intent))
    const [burned] = parseEventLogs({ abi: t.token.abi, logs: receipt.logs, eventName: 'Burned' })
    expect(burned.args).toEqual({
      redemptionId: intent.redemptionId,
      from: t.redemptionAccount.address,
      amount: 400n * ONE_OZ,
    })
    expect(await t.read.totalSupply()).toBe(supply - 400n * ONE_OZ)
    expect(await t.read.balanceOf(t.redemptionAccount.address)).toBe(19_600n * ONE_OZ)
    expect(
      await t.publicClient.readContract({ ...t.token, functionName: 'isBurned', args: [intent.redemptionId] }),
    ).toBe(true)
  })

  it('burns from no other address, nor more than the redemption address holds; 10,000 oz need 2 approvers', async () => {
    const fromHolder = await redemption({ from: t.holderAccount.address })
    expect(
      await refusal(burnOp(fromHolder).simulate(await t.signed(burnOp(fromHolder).typedData, [devKeys.approver]))),
    ).toEqual({
      name: 'NotRedemptionAddress',
      args: [t.holderAccount.address, t.redemptionAccount.address],
    })
    const tooMuch = burnOp(await redemption({ amount: 20_001n * ONE_OZ }))
    expect(
      await refusal(tooMuch.simulate(await t.signed(tooMuch.typedData, [devKeys.approver, devKeys.approver2]))),
    ).toEqual({
      name: 'InsufficientRedemptionBalance',
      args: [20_000n * ONE_OZ, 20_001n * ONE_OZ],
    })
    const large = burnOp(await redemption({ amount: 10_000n * ONE_OZ }))
    expect(await refusal(large.simulate(await t.signed(large.typedData, [devKeys.approver])))).toEqual({
      name: 'NotEnoughSignatures',
      args: [1n, 2n],
    })
    await approved(large, [devKeys.approver, devKeys.approver2])
    expect(await t.read.balanceOf(t.redemptionAccount.address)).toBe(10_000n * ONE_OZ)
  })

  it('freezes an address: it receives nothing, by mint or transfer, and sends nothing, until unfrozen', async () => {
    const operationId = randomId()
    const receipt = await approved(
      freezeOp({ operationId, account: bystander.address, frozen: true, deadline: await deadline() }),
    )
    expect(parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'Frozen' })[0].args).toEqual({
      operationId,
      account: bystander.address,
    })
    expect(parseEventLogs({ abi: t.token.abi, logs: receipt.logs, eventName: 'Frozen' })[0].args.account).toBe(
      bystander.address,
    )
    expect(await t.publicClient.readContract({ ...t.token, functionName: 'isFrozen', args: [bystander.address] })).toBe(
      true,
    )

    const toFrozen = await t.mintIntent({ to: bystander.address })
    expect(
      await refusal(t.simulateMint(toFrozen, await t.signed(t.mintTypedData(toFrozen), [devKeys.approver]))),
    ).toEqual({
      name: 'AccountFrozen',
      args: [bystander.address],
    })
    expect(await transferFails(t.holderAccount, bystander.address)).toEqual({
      name: 'AccountFrozen',
      args: [bystander.address],
    })

    const unfrozen = await freeze(bystander.address, false)
    expect(parseEventLogs({ abi: t.minter.abi, logs: unfrozen.logs, eventName: 'Unfrozen' })[0].args.account).toBe(
      bystander.address,
    )
    await t.mint(toFrozen, await t.signed(t.mintTypedData(toFrozen), [devKeys.approver]))
    expect(await t.read.balanceOf(bystander.address)).toBe(ONE_OZ)
  })

  it('a frozen redemption address is burned from no more', async () => {
    await freeze(t.redemptionAccount.address)
    const op = burnOp(await redemption())
    expect(await refusal(op.simulate(await t.signed(op.typedData, [devKeys.approver])))).toEqual({
      name: 'AccountFrozen',
      args: [t.redemptionAccount.address],
    })
  })

  it('pauses the token: it mints, burns and transfers nothing until unpaused', async () => {
    const operationId = randomId()
    const receipt = await approved(pauseOp({ operationId, paused: true, deadline: await deadline() }))
    expect(parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'Paused' })[0].args).toEqual({
      operationId,
    })
    expect(await t.publicClient.readContract({ ...t.token, functionName: 'paused' })).toBe(true)

    const mint = await t.mintIntent()
    expect((await refusal(t.simulateMint(mint, await t.signed(t.mintTypedData(mint), [devKeys.approver])))).name).toBe(
      'TokenPaused',
    )
    const burn = burnOp(await redemption())
    expect((await refusal(burn.simulate(await t.signed(burn.typedData, [devKeys.approver])))).name).toBe('TokenPaused')
    expect((await transferFails(t.holderAccount, bystander.address)).name).toBe('EnforcedPause')
    // pausing twice is refused; a freeze still goes through while paused
    const again = pauseOp({ operationId: randomId(), paused: true, deadline: await deadline() })
    expect(await refusal(again.simulate(await t.signed(again.typedData, [devKeys.approver])))).toEqual({
      name: 'PauseUnchanged',
      args: [true],
    })
    await freeze(bystander.address)

    const unpaused = await pause(false)
    expect(parseEventLogs({ abi: t.minter.abi, logs: unpaused.logs, eventName: 'Unpaused' })).toHaveLength(1)
    await t.mint(mint, await t.signed(t.mintTypedData(mint), [devKeys.approver]))
    await approved(burn)
    await t.mined(
      t.holder.writeContract({ ...t.token, functionName: 'transfer', args: [t.redemptionAccount.address, 1n] }),
    )
  })
})
