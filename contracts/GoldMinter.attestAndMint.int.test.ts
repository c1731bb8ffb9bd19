import { type Hex, parseEventLogs } from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { vaultId } from '@/lib/chain/bars'
import type { BarList, MintIntent, SignerSignature } from '@/lib/chain/typedData'
import { devKeys } from '@/scripts/stack/deployGoldMinter'
import { type GoldMinterTestbed, ONE_OZ, refusal, startGoldMinterTestbed } from './testing/goldMinterTestbed'

// GoldMinter.attestAndMint on a real anvil: the mint carries the custodian-signed bar list
// that backs it, so the relayer sends one transaction; every call goes out from the relayer.

describe('GoldMinter: attestAndMint', () => {
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

  type Call = { list: BarList; custodian: Hex; signature: Hex; intent: MintIntent; approvals: SignerSignature[] }
  const args = (c: Call) => [c.list, c.custodian, c.signature, c.intent, c.approvals] as const
  const send = (c: Call) =>
    t.mined(t.relayer.writeContract({ ...t.minter, functionName: 'attestAndMint', args: args(c) }))
  const fails = (c: Call) =>
    refusal(
      t.publicClient.simulateContract({
        ...t.minter,
        account: t.relayerAccount,
        functionName: 'attestAndMint',
        args: args(c),
      }),
    )

  /** a list of `vault` with this total signed by the dev custodian, and a 1 oz intent approved by approver 10 */
  const call = async (p: { totalFineWei: bigint; asOf?: bigint; vault?: Hex }): Promise<Call> => {
    const list = await t.barList(p)
    const { signature } = await t.attest(list)
    const intent = await t.mintIntent()
    const approvals = await t.signed(t.mintTypedData(intent), [devKeys.approver])
    return { list, custodian: devKeys.custodian.address, signature, intent, approvals }
  }

  it('attests a new vault at its first mint, binding it to the custodian, and mints in the same transaction', async () => {
    const vault = vaultId(`V-${Date.now()}`)
    const c = await call({ totalFineWei: 10n * ONE_OZ, vault })
    const receipt = await send(c)
    expect(parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'ReserveAttested' })).toHaveLength(1)
    expect(parseEventLogs({ abi: t.token.abi, logs: receipt.logs, eventName: 'Minted' })).toHaveLength(1)
    expect(await t.read.reserve()).toBe(10n * ONE_OZ)
    const bound = await t.publicClient.readContract({ ...t.minter, functionName: 'vaultReserve', args: [vault] })
    expect(bound.custodian).toBe(devKeys.custodian.address)
  })

  it('takes the same list again as it stands, attests a newer one, and refuses an older one', async () => {
    const asOf = (await t.now()) - 100n
    const first = await call({ totalFineWei: 10n * ONE_OZ, asOf })
    await send(first)
    // the same list, with another order: no attestation, the mint goes through
    const again = { ...first, intent: await t.mintIntent() }
    again.approvals = await t.signed(t.mintTypedData(again.intent), [devKeys.approver])
    const receipt = await send(again)
    expect(parseEventLogs({ abi: t.minter.abi, logs: receipt.logs, eventName: 'ReserveAttested' })).toHaveLength(0)
    expect(await t.read.totalSupply()).toBe(2n * ONE_OZ)

    await send(await call({ totalFineWei: 20n * ONE_OZ, asOf: asOf + 10n }))
    expect(await t.read.reserve()).toBe(20n * ONE_OZ)
    const older = await call({ totalFineWei: 500n * ONE_OZ, asOf: asOf + 5n })
    expect(await fails(older)).toEqual({ name: 'StaleAttestation', args: [older.list.vault, asOf + 5n, asOf + 10n] })
    // a list with the latest asOf but another total is no "same list": it is stale
    const forged = await call({ totalFineWei: 500n * ONE_OZ, asOf: asOf + 10n })
    expect((await fails(forged)).name).toBe('StaleAttestation')
  })

  it("refuses a list the custodian did not sign, and mints nothing above the list's total", async () => {
    const c = await call({ totalFineWei: 10n * ONE_OZ })
    const inflated = { ...c, list: { ...c.list, totalFineWei: 1_000n * ONE_OZ } }
    expect(await fails(inflated)).toEqual({
      name: 'InvalidCustodianSignature',
      args: [c.list.vault, devKeys.custodian.address],
    })
    const byApprover = { ...c, signature: (await t.attest(c.list, devKeys.approver)).signature }
    expect((await fails(byApprover)).name).toBe('InvalidCustodianSignature')
    const small = await call({ totalFineWei: ONE_OZ / 2n })
    expect((await fails(small)).name).toBe('ReserveExceeded')
    expect(await t.read.totalSupply()).toBe(0n)
  })

  it('refuses the mint without approvals even with a valid list, and attests nothing then', async () => {
    const c = await call({ totalFineWei: 10n * ONE_OZ })
    expect(await fails({ ...c, approvals: [] })).toEqual({ name: 'NotEnoughSignatures', args: [0n, 1n] })
    expect(await t.read.reserve()).toBe(0n)
  })
})
