import { describe, expect, it } from 'vitest'
import { toApiMintBar } from './toApiMintBar'
import { type ToApiMintOrderParameters, toApiMintOrder } from './toApiMintOrder'

const base: ToApiMintOrderParameters = {
  order: {
    id: '0b9f3c1e-0000-4000-8000-000000000001',
    status: 'pending',
    toAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amountWei: '802168000000000000000',
    vault: 'LDN-1',
    receiptRef: 'VR-1',
    documentSha256: 'a'.repeat(64),
    requestedByEmail: 'staff@mintdesk.local',
    createdAt: new Date('2026-01-31T14:05:09.123Z'),
    updatedAt: new Date('2026-01-31T14:05:09.123Z'),
    submittedAt: null,
    confirmedAt: null,
    failureReason: null,
    signerAddress: null,
    nonce: null,
    txHash: null,
    blockNumber: null,
    approvedByEmail: null,
    approvedAt: null,
    rejectedByEmail: null,
    rejectedAt: null,
    rejectionReason: null,
    // as readMintOrder gives them: stored rows through toApiMintBar
    bars: [
      { serial: 'A', refiner: 'R', year: 2025, grossOz: '401.125', fineness: '999.90', fineOz: '401.084' },
      { serial: 'B', refiner: 'R', year: 2025, grossOz: '400.000', fineness: '995.00', fineOz: '398.000' },
      { serial: 'C', refiner: 'R', year: 2025, grossOz: '32.150', fineness: '999.99', fineOz: '32.149' },
    ].map(toApiMintBar),
  },
  latestTx: null,
  confirmations: null,
  timeline: [],
}

describe('toApiMintOrder', () => {
  it('writes amounts and weights as exact strings, fineness as submitted', () => {
    const r = toApiMintOrder(base)
    expect(r.amount).toBe('802.168')
    expect(r.vaultProof.bars.map((b) => [b.grossOz, b.fineness, b.fineOz])).toEqual([
      ['401.125', '999.9', '401.084'],
      ['400.000', '995.0', '398.000'],
      ['32.150', '999.99', '32.149'],
    ])
    expect(r.createdAt).toBe('2026-01-31T14:05:09.123Z')
    expect(r.tx).toBeNull()
  })

  it('decision: none, the approval (who, when), or the rejection with its reason', () => {
    expect(toApiMintOrder(base).decision).toBeNull()
    const at = new Date('2026-02-01T09:00:00.000Z')
    expect(
      toApiMintOrder({
        ...base,
        order: { ...base.order, approvedByEmail: 'approver@mintdesk.local', approvedAt: at },
      }).decision,
    ).toEqual({
      outcome: 'approved',
      by: 'approver@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      reason: null,
    })
    const rejected = {
      ...base.order,
      status: 'rejected' as const,
      rejectedByEmail: 'admin@mintdesk.local',
      rejectedAt: at,
      rejectionReason: 'receipt unreadable',
    }
    expect(toApiMintOrder({ ...base, order: rejected }).decision).toEqual({
      outcome: 'rejected',
      by: 'admin@mintdesk.local',
      at: '2026-02-01T09:00:00.000Z',
      reason: 'receipt unreadable',
    })
  })

  it('an amount that is not whole milli-ounces is shown in wei, not rounded', () => {
    expect(toApiMintOrder({ ...base, order: { ...base.order, amountWei: '1000000000000000001' } }).amount).toBe(
      '1000000000000000001 wei',
    )
  })

  it('amounts beyond 2^53 wei stay exact', () => {
    const r = toApiMintOrder({
      ...base,
      order: { ...base.order, amountWei: '123456789012345678901000000000000000' },
    })
    expect(r.amount).toBe('123456789012345678.901')
  })

  it('tx: the mined hash wins over the latest signed one', () => {
    const r = toApiMintOrder({
      ...base,
      order: { ...base.order, txHash: '0xmined', nonce: 7n, blockNumber: 99n },
      latestTx: { hash: '0xlatest', nonce: 7n, minedBlock: null },
      confirmations: 2,
    })
    expect(r.tx).toEqual({ hash: '0xmined', nonce: 7, blockNumber: 99, confirmations: 2 })
  })
})
