import { zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { vaultId } from '@/lib/chain/bars'
import { decodeControlChange, encodeControlChange } from '@/lib/chain/typedData'
import { buildControlChangeIntent } from './controlChangeIntent'
import { onChainChangeAction, onChainChangeParamsSchemas, type ParsedOnChainChange } from './onChainChanges'

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('the control changes that live on chain', () => {
  const cases: [ParsedOnChainChange, ReturnType<typeof onChainChangeAction>][] = [
    [
      { kind: 'approver.add', params: { address: ADDRESS } },
      { action: 'addApprover', account: ADDRESS },
    ],
    [
      { kind: 'admin.remove', params: { address: ADDRESS } },
      { action: 'removeAdmin', account: ADDRESS },
    ],
    [
      { kind: 'custodian.vault', params: { vault: 'LDN-1', custodian: null } },
      { action: 'setCustodian', vault: vaultId('LDN-1'), custodian: zeroAddress },
    ],
    [
      {
        kind: 'approvals.rule',
        params: { largeAmountOz: '10000.000', approvalsBelow: 1, approvalsAtOrAbove: 2, complianceApprovals: 1 },
      },
      {
        action: 'setApprovalRule',
        rule: {
          largeAmount: 10_000n * 10n ** 18n,
          approvalsBelow: 1n,
          approvalsAtOrAbove: 2n,
          complianceApprovals: 1n,
        },
      },
    ],
    [
      { kind: 'mint.rate_limit', params: { capacityOz: '500.5', refillOzPerSecond: '0.001' } },
      { action: 'setRateLimit', capacity: 5005n * 10n ** 17n, refillPerSecond: 10n ** 15n },
    ],
    [
      { kind: 'admin.threshold', params: { threshold: 3 } },
      { action: 'setAdminThreshold', threshold: 3n },
    ],
  ]

  it.each(cases)('%o becomes the GoldMinter action it names, and decodes back', (change, action) => {
    expect(onChainChangeAction(change)).toEqual(action)
    expect(decodeControlChange(encodeControlChange(action))).toEqual(action)
  })

  it('refuses params GoldMinter could not take: a bad address, a zero count, an amount of 4 decimals', () => {
    expect(onChainChangeParamsSchemas['approver.add'].safeParse({ address: '0x1234' }).success).toBe(false)
    expect(onChainChangeParamsSchemas['admin.threshold'].safeParse({ threshold: 1 }).success).toBe(false)
    expect(
      onChainChangeParamsSchemas['mint.rate_limit'].safeParse({ capacityOz: '1.0001', refillOzPerSecond: '1' }).success,
    ).toBe(false)
    expect(onChainChangeParamsSchemas['approver.add'].safeParse({ address: ADDRESS, extra: 1 }).success).toBe(false)
  })

  it("builds the ControlChange of the change's id (a uuid as bytes32) and deadline in whole seconds", () => {
    const intent = buildControlChangeIntent({
      changeId: '0b9f3a9c-6f1e-4c55-9a11-2f4d8b6e7c01',
      change: { kind: 'approver.add', params: { address: ADDRESS } },
      deadline: new Date('2026-12-10T00:00:00.900Z'),
    })
    expect(intent).toMatchObject({
      changeId: '0x000000000000000000000000000000000b9f3a9c6f1e4c559a112f4d8b6e7c01',
      action: 'addApprover',
      deadline: BigInt(Date.parse('2026-12-10T00:00:00Z') / 1000),
    })
  })
})
